"""What an operator needs from every process: health and readiness (health), Prometheus
metrics (metrics), JSON logs with request ids (logs), and the small HTTP server that
serves them beside a projector or a worker (sidecar). The API serves them itself
(web). And what every RQ worker runs: a measured worker (worker) and its clock (clock)."""
