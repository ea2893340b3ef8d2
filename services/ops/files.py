"""Open files: what bounds the connections an API process can hold.

Every connection, a WebSocket or a plain request, is one open file of the process. A
process that has used its file limit (RLIMIT_NOFILE) cannot accept anything: the
kernel refuses the next accept with EMFILE and a plain request, the health check
among them, waits in the listen queue until its client gives up. So the API raises
its soft limit to the hard one as it starts (as nginx's worker_rlimit_nofile and Go's
runtime do), and caps its sockets and plain requests to fit under what it got, keeping
some files for its own use (Redis connections, logs, metrics files, the listener).
"""

import resource

OWN_FILES = 100  # the process's own: Redis pools, logs, metrics files, listener, epoll
PLAIN_REQUESTS = 1_000  # connections kept for plain requests (and long-polls) at most


def raise_limit():
    """Raise this process's soft limit on open files to its hard limit (children
    inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # an unlimited hard limit the kernel caps lower
            pass


def connections(ws_max_sockets, files=None):
    """(sockets, plain): the WebSockets one API process may hold and the plain requests
    kept beside them, so that both and its own files fit in `files` (default: the
    process's soft limit). Plain requests keep at most a quarter of the files, so a
    small limit still leaves room for sockets."""
    if files is None:
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if files == resource.RLIM_INFINITY:
        return ws_max_sockets, PLAIN_REQUESTS
    plain = max(1, min(PLAIN_REQUESTS, files // 4))
    sockets = max(0, min(ws_max_sockets, files - plain - OWN_FILES))
    return sockets, plain
