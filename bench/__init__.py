"""The benchmarks: scripts run as modules from the checkout's root
(`.venv/bin/python -m bench.compare`); bench/README.md says what each measures."""
