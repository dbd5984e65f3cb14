"""A stand-in alert receiver for the serve benchmarks: answers every POST with 202, on 127.0.0.1 only.
Usage: python3 bench/alert-receiver.py PORT"""
import http.server
import sys


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(202)
        self.end_headers()

    def log_message(self, *arguments):
        pass


http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Receiver).serve_forever()
