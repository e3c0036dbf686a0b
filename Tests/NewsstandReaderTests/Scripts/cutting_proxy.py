import socket, sys, threading
upstream, cut = int(sys.argv[1]), int(sys.argv[2])
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", 0))
server.listen(16)
print(server.getsockname()[1], flush=True)
def relay(client):
    with client, socket.create_connection(("127.0.0.1", upstream)) as origin:
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = client.recv(65536)
            if not chunk:
                return
            request += chunk
        origin.sendall(request)
        sent = 0
        while sent < cut:
            chunk = origin.recv(min(65536, cut - sent))
            if not chunk:
                break
            client.sendall(chunk)
            sent += len(chunk)
        client.shutdown(socket.SHUT_RDWR)
while True:
    connection, _ = server.accept()
    threading.Thread(target=relay, args=(connection,), daemon=True).start()
