import socket, sys, threading, time
behaviour = sys.argv[1]
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", 0))
server.listen(16)
print(server.getsockname()[1], flush=True)
def serve(client):
    with client:
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = client.recv(65536)
            if not chunk:
                return
            request += chunk
        method = request.split(b" ", 1)[0]
        if behaviour == "silent" or (behaviour == "silent-upload" and method == b"PUT"):
            time.sleep(3600)
        if behaviour == "silent-upload":
            client.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            return
        client.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n")
        # drip: 1 byte a second; steady: 4 KiB a second, without end
        size, pause = (1, 1.0) if behaviour == "drip" else (512, 0.125)
        while True:
            client.sendall(b" " * size)
            time.sleep(pause)
while True:
    connection, _ = server.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
