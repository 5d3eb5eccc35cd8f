"""A digest client the project did not write: Python's urllib (HTTPDigestAuthHandler).

Reads a JSON job from stdin and prints a JSON list of results, one per request:
  {"base": "http://127.0.0.1:PORT", "user": "admin", "password": "1234", "cafile": null,
   "parallel": 1, "requests": [{"method": "GET", "path": "/restapi/...", "headers": {}, "body": null,
                                "auth": "digest" | "basic" | "none"}]}
Each result: {"status": int, "headers": [[name, value], ...], "body": str} or {"error": str}.
Redirects are not followed, so a 307 is reported as such.
"""

import base64
import concurrent.futures
import http.client
import json
import ssl
import sys
import urllib.error
import urllib.request

# A matrix answer carries one Link header per element; real units need the same allowance.
http.client._MAXHEADERS = 1000


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def run_one(job, spec):
    handlers = [NoRedirect()]
    if job.get("cafile"):
        handlers.append(urllib.request.HTTPSHandler(context=ssl.create_default_context(cafile=job["cafile"])))
    headers = dict(spec.get("headers") or {})
    auth = spec.get("auth", "digest")
    if auth == "digest":
        manager = urllib.request.HTTPPasswordMgrWithDefaultRealm()
        manager.add_password(None, job["base"], spec.get("user", job["user"]), spec.get("password", job["password"]))
        handlers.append(urllib.request.HTTPDigestAuthHandler(manager))
    elif auth == "basic":
        pair = "%s:%s" % (spec.get("user", job["user"]), spec.get("password", job["password"]))
        headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
    opener = urllib.request.build_opener(*handlers)
    body = spec.get("body")
    data = body.encode("utf-8") if isinstance(body, str) else None
    request = urllib.request.Request(job["base"] + spec["path"], data=data, headers=headers, method=spec.get("method", "GET"))
    try:
        with opener.open(request, timeout=spec.get("timeout", 20)) as response:
            return {"status": response.status, "headers": list(response.headers.items()), "body": response.read().decode("utf-8", "replace")}
    except urllib.error.HTTPError as error:
        return {"status": error.code, "headers": list(error.headers.items()), "body": error.read().decode("utf-8", "replace")}
    except Exception as error:  # report, never crash: the test decides
        return {"error": "%s: %s" % (type(error).__name__, error)}


def main():
    job = json.load(sys.stdin)
    requests = job["requests"]
    workers = max(1, int(job.get("parallel", 1)))
    if workers == 1:
        results = [run_one(job, spec) for spec in requests]
    else:
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(lambda spec: run_one(job, spec), requests))
    json.dump(results, sys.stdout)


main()
