import socket, sys, threading, time
mode = sys.argv[1]
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(16)
print(server.getsockname()[1], flush=True)
def serve(connection):
    try:
        connection.recv(65536)
        if mode == "silent":
            time.sleep(3600)
        elif mode == "drip":
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
            while True:
                connection.sendall(b" ")
                time.sleep(0.2)
        elif mode == "endless":
            connection.sendall(b"HTTP/1.1 200 OK\r\n\r\n")
            while True:
                connection.sendall(b"[" * 65536)
        elif mode == "declared":
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 999999999\r\n\r\n")
            time.sleep(3600)
        elif mode == "endless-head":
            connection.sendall(b"HTTP/1.1 200 OK\r\n")
            while True:
                connection.sendall(b"X-Filler: " + b"x" * 1000 + b"\r\n")
        elif mode == "garbage":
            connection.sendall(b"SSH-2.0-OpenSSH_9.2\r\n\r\n")
        elif mode == "chunked":
            connection.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        elif mode == "cut":
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"id\":")
        elif mode in ("other-id", "not-json"):
            body = b'{"jsonrpc":"2.0","id":"someone-else","result":{}}' if mode == "other-id" else b"<html>"
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
    except OSError:
        pass
    finally:
        connection.close()
while True:
    connection, _ = server.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
