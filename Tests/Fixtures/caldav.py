#!/usr/bin/python3
"""A minimal CalDAV client for CalendarChainTests (the standard library only):

    caldav.py mkcalendar URL         creates a calendar collection
    caldav.py put URL FILE           stores FILE (text/calendar) at URL
    caldav.py get URL                prints the item at URL
    caldav.py ping URL               exits 0 once the server answers at all

Basic authentication as user "user" (Radicale with --auth-type=none takes any password).
Exits 1 with the status on an HTTP error.
"""

import base64
import sys
import urllib.error
import urllib.request

AUTH = "Basic " + base64.b64encode(b"user:x").decode()


def request(method, url, body=None, content_type=None):
    req = urllib.request.Request(url, data=body, method=method)
    req.add_header("Authorization", AUTH)
    if content_type:
        req.add_header("Content-Type", content_type)
    with urllib.request.urlopen(req, timeout=10) as response:
        return response.read()


def main():
    command, url = sys.argv[1], sys.argv[2]
    try:
        if command == "mkcalendar":
            request("MKCALENDAR", url)
        elif command == "put":
            with open(sys.argv[3], "rb") as file:
                request("PUT", url, file.read(), "text/calendar; charset=utf-8")
        elif command == "get":
            sys.stdout.write(request("GET", url).decode())
        elif command == "ping":
            try:
                request("OPTIONS", url)
            except urllib.error.HTTPError:
                pass
    except urllib.error.HTTPError as error:
        sys.exit(f"caldav.py: {command} {url}: HTTP {error.code}")
    except OSError as error:
        sys.exit(f"caldav.py: {command} {url}: {error}")


if __name__ == "__main__":
    main()
