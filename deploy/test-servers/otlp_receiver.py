"""A small OTLP/HTTP receiver for traces: decodes each export (protobuf, or JSON; gzip or not)
with PyPI's opentelemetry-proto and appends one JSON line per span to a file:
{"trace_id", "span_id", "parent_span_id", "name", "kind", "start_ns", "end_ns", "service",
"attributes", "links": [{"trace_id", "span_id"}], "export_headers": {lower-case name: value}}
(IDs in lower-case hex; "" for no parent). Answers an empty success.

    python otlp_receiver.py --port P --out SPANS_JSONL
Listens on 127.0.0.1 only; prints "ready" when it accepts connections.
"""
import argparse
import gzip
import json
import threading

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest, ExportTraceServiceResponse
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from loopback_http import QuietHandler, serve, unblock_signals

KINDS = {value: name.replace("SPAN_KIND_", "").lower() for name, value in Span.SpanKind.items()}


def value_of(any_value):
    kind = any_value.WhichOneof("value")
    return None if kind is None else getattr(any_value, kind) if kind not in ("array_value", "kvlist_value") else str(any_value)


def main():
    unblock_signals()
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    lock = threading.Lock()

    class Handler(QuietHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if self.headers.get("Content-Encoding", "").lower() == "gzip":
                body = gzip.decompress(body)
            request = ExportTraceServiceRequest()
            status = 200
            try:
                if "json" in self.headers.get("Content-Type", ""):
                    json_format.Parse(body, request)
                else:
                    request.ParseFromString(body)
            except Exception:  # a malformed export: say so, as a collector would
                status = 400
            lines = []
            for resource_spans in request.resource_spans:
                attributes = {a.key: value_of(a.value) for a in resource_spans.resource.attributes}
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        lines.append(json.dumps({
                            "trace_id": span.trace_id.hex(), "span_id": span.span_id.hex(), "parent_span_id": span.parent_span_id.hex(),
                            "name": span.name, "kind": KINDS.get(span.kind, str(span.kind)),
                            "start_ns": span.start_time_unix_nano, "end_ns": span.end_time_unix_nano,
                            "service": attributes.get("service.name"),
                            "attributes": {a.key: value_of(a.value) for a in span.attributes},
                            "links": [{"trace_id": link.trace_id.hex(), "span_id": link.span_id.hex()} for link in span.links],
                            "export_headers": {name.lower(): value for name, value in self.headers.items()},
                        }))
            if lines:
                with lock, open(args.out, "a") as handle:
                    handle.write("\n".join(lines) + "\n")
            reply = ExportTraceServiceResponse().SerializeToString() if status == 200 else b""
            self.answer(status, reply, "application/x-protobuf")

    serve(args.port, Handler)


if __name__ == "__main__":
    main()
