# The threaded web server after PythonPlus's Tools/plus/testserver.py (Kristjan Valur Jonsson, 2013),
# for CPython 2.7 and 3.x and PyPy: one file that Python 2.7 and 3 both read.
#
# A socketserver.TCPServer on 127.0.0.1:VERSUS_PORT whose accepting thread puts each connection on a
# queue.Queue; WORKERS threads take connections from it and answer with an HTTP/1.0 page that costs
# a little CPU (WORK loop iterations). The load driver of versus runs ab or wrk against it.
#
# Threading mode: the case's URL path names it, "/stock" or "/fastcond" (the load driver tells the
# server its parameters, not its case, and fastcond exists only on CPython 3, so stock and fastcond
# are cases, not a swept parameter). The first connection that carries a request decides the mode
# before the pool is made: for "/fastcond", fastcond.patch() is called first, so the queue's three
# Conditions are fastcond's. From then on a request for the other mode is answered with 500, which
# ab and wrk count as failed, and the case's check (0 failed requests) fails the run.
import os
import socket
import sys
import threading
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "subjects",
                                "fastcond", "python"))
import fastcond_build  # noqa: E402  (the subject's loader, found from this file)

try:  # Python 3
    import socketserver
    from http.server import BaseHTTPRequestHandler
    import queue
except ImportError:  # Python 2
    import SocketServer as socketserver
    from BaseHTTPServer import BaseHTTPRequestHandler
    import Queue as queue

try:
    xrange
except NameError:
    xrange = range

PORT = int(os.environ["VERSUS_PORT"])
WORKERS = int(os.environ.get("VERSUS_PARAM_WORKERS", "8"))
WORK = int(os.environ.get("VERSUS_PARAM_WORK", "2000"))
MODES = ("stock", "fastcond")


load_fastcond = fastcond_build.load


def page():
    """A little CPU work, and a page whose length never changes (ab counts a change as a failure)."""
    total = 0
    for i in xrange(WORK):
        total += i * i % 7
    rows = "".join(["<tr><td>%d</td><td>%08d</td></tr>\n" % (k, (total * (k + 1)) % 100000000)
                    for k in range(10)])
    return ("<html><body><h1>versus threaded-server</h1>\n<table>\n%s</table></body></html>\n"
            % rows).encode("ascii")


class Page(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self):
        wanted = self.path.strip("/") or "stock"
        if wanted == self.server.mode:
            status, body = 200, page()
        else:
            status, body = 500, ("this server runs %s, not %s\n" % (self.server.mode, wanted)).encode("ascii")
        self.send_response(status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class PoolServer(socketserver.TCPServer):
    """A TCPServer whose connections are handled by a fixed pool of threads fed through a Queue."""
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address):
        socketserver.TCPServer.__init__(self, address, Page)
        self.mode = None
        self.requests = None

    def first_request_line(self, request):
        """The request line of the first connection, peeked (the data stays for the handler); ''
        for a connection that closes without a request, such as the load driver's readiness probe."""
        data = "".encode("ascii")
        newline = "\n".encode("ascii")
        while newline not in data and len(data) < 4096:
            more = request.recv(4096, socket.MSG_PEEK)
            if len(more) == len(data):  # closed, or no more yet: wait for the rest
                if not more:
                    return ""
                time.sleep(0.001)
            data = more
        return data.split(newline)[0].decode("latin-1")

    def start_pool(self, mode):
        if mode == "fastcond":
            fastcond = load_fastcond()
            fastcond.patch()
        self.requests = queue.Queue()
        kind = type(self.requests.not_empty).__module__
        if (mode == "fastcond") != (kind == "fastcond"):
            raise RuntimeError("mode %s, but the queue's Condition comes from %s" % (mode, kind))
        self.mode = mode
        for _ in range(WORKERS):
            worker = threading.Thread(target=self.work)
            worker.daemon = True
            worker.start()
        sys.stdout.write("serving with %d workers, threading=%s (Condition from %s), on %s\n"
                         % (WORKERS, mode, kind, sys.version.split()[0]))
        sys.stdout.flush()

    def process_request(self, request, client_address):
        if self.requests is None:
            line = self.first_request_line(request)
            if not line:
                self.shutdown_request(request)
                return
            parts = line.split()
            mode = parts[1].strip("/") if len(parts) > 1 else ""
            if mode not in MODES:
                sys.stdout.write("first request %r names no mode of %s; using stock\n" % (line, MODES))
                mode = "stock"
            self.start_pool(mode)
        self.requests.put((request, client_address))

    def work(self):
        while True:
            request, client_address = self.requests.get()
            try:
                self.finish_request(request, client_address)
            except Exception:
                self.handle_error(request, client_address)
            self.shutdown_request(request)


if __name__ == "__main__":
    server = PoolServer(("127.0.0.1", PORT))
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
