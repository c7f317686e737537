# expect: runtime_error
# why: opens a TCP connection to 127.0.0.1:80; there is no network, so socket creation or connect raises
import socket


def double(x):
    return 2 * x


conn = socket.create_connection(("127.0.0.1", 80), timeout=5)
conn.sendall(b"GET / HTTP/1.0\r\n\r\n")
print(conn.recv(1024))
