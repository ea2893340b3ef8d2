"""What an API process's open-file limit leaves for WebSockets (services/ops/files.py)."""

import resource

from services.ops import files


def test_sockets_plain_requests_and_own_files_fit_in_the_limit():
    for limit in (200, 1024, 4096, 20_000, 65_536, 1 << 20):
        sockets, plain = files.connections(11_000, limit)
        assert sockets + plain + files.OWN_FILES <= limit
        assert 0 < plain <= files.PLAIN_REQUESTS and sockets <= 11_000


def test_a_generous_limit_leaves_ws_max_sockets_as_it_is():
    assert files.connections(11_000, 20_000) == (11_000, files.PLAIN_REQUESTS)
    assert files.connections(11_000, resource.RLIM_INFINITY) == (11_000, files.PLAIN_REQUESTS)


def test_a_common_default_limit_of_1024_still_leaves_sockets():
    sockets, plain = files.connections(11_000, 1024)
    assert (sockets, plain) == (1024 - 256 - files.OWN_FILES, 256)


def test_a_limit_smaller_than_the_process_needs_leaves_no_socket():
    assert files.connections(11_000, 100)[0] == 0
