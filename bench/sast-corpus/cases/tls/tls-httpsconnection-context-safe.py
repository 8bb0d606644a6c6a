import http.client
import json
import ssl


def push_metrics(metrics):
    conn = http.client.HTTPSConnection("metrics.example.com", 443, context=ssl.create_default_context())
    conn.request("POST", "/ingest", body=json.dumps(metrics), headers={"Content-Type": "application/json"})
    return conn.getresponse().status
