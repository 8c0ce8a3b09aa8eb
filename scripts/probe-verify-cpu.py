#!/usr/bin/env python3
"""Measures the server CPU one POST /v1/verify of 20,000 snippets costs against a
1M-character archived text (the payload is invalid by its count; nothing may be sliced)."""
import json, urllib.request, os, sys, time
# Usage: scripts/probe-verify-cpu.py URL PID  (URL must be a loopback address)
if len(sys.argv) != 3 or not sys.argv[1].startswith(('http://127.0.0.1:', 'http://localhost:')):
    sys.exit('usage: probe-verify-cpu.py http://127.0.0.1:PORT SERVER_PID')
base, pid = sys.argv[1].rstrip('/'), int(sys.argv[2])
def cpu():
    f = open(f'/proc/{pid}/stat').read().split(')')[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf('SC_CLK_TCK')
words = "the river rises and falls with the tide each day near the coast".split()
text = " ".join(words[i % len(words)] for i in range(200000))[:1000000]
req = urllib.request.Request(base + '/v1/digest?query=tide', data=text.encode(), headers={'Content-Type': 'text/plain'})
d = json.load(urllib.request.urlopen(req, timeout=120))['data']
h = d['source']['archive_hash']
dig = d['digest']
sn = dict(dig['evidence_snippets'][0]); sn['text'] = text[0:20]; sn['locator'] = 'char:0-20'
dig['evidence_snippets'] = [sn] * 20000
body = json.dumps({'digest': dig}).encode()
c0 = cpu(); t0 = time.time()
r = urllib.request.urlopen(urllib.request.Request(base + '/v1/verify', data=body, headers={'Content-Type': 'application/json'}), timeout=120)
out = r.read()
t1 = time.time(); c1 = cpu()
print(f"body {len(body)} bytes, text {len(text)} chars: status {r.status}, wall {t1-t0:.3f}s, server CPU {c1-c0:.3f}s, valid={json.loads(out)['data']['valid']}")
# ten valid snippets, for comparison
dig['evidence_snippets'] = [sn]
body = json.dumps({'digest': dig}).encode()
c0 = cpu(); t0 = time.time()
r = urllib.request.urlopen(urllib.request.Request(base + '/v1/verify', data=body, headers={'Content-Type': 'application/json'}), timeout=120)
out = json.loads(r.read()); t1 = time.time(); c1 = cpu()
print(f"one snippet: wall {t1-t0:.3f}s, server CPU {c1-c0:.3f}s, verified={out['data']['verified']}")
