// Package deploy holds what it takes to run amlscreen in production: the
// container build (Dockerfile), Kubernetes manifests for a primary, read
// replicas and the sharded batch (kubernetes/), systemd units for a
// single host and a replica (systemd/), and an example Grafana dashboard
// for /metrics (grafana/). It has no code of its own.
//
// Its tests keep those files true without a Docker engine or a cluster:
// every manifest is decoded strictly into the typed Kubernetes API objects,
// every command line in them is parsed by the real amlscreen binary, the
// probes are asked of a real amlscreen serve, every query of the dashboard
// names a series a real replica's /metrics exposes, and what the files
// promise to each other (ports, paths, users, secrets, download budgets) is
// checked across them.
package deploy
