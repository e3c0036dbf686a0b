import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1])
held = []
while True:
    c, _ = s.accept(); held.append(c); print("accepted")
