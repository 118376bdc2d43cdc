package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/tlsconf"
)

func init() { register(newProbeCmd) }

type probeFlags struct {
	listen   string
	url      string
	timeout  time.Duration
	caBundle string
}

func newProbeCmd() *cobra.Command {
	var f probeFlags
	cmd := &cobra.Command{
		Use:   "probe [--listen ADDR | --url URL]",
		Short: "Ask a running serve whether it is ready (GET /readyz): exit 0 ready, 1 not",
		Long: `Ask a running amlscreen serve whether it is ready to answer: GET /readyz, with
no key. A container image without a shell (the scratch image of
deploy/Dockerfile) runs it as its Docker HEALTHCHECK.

--listen takes the address serve was given (":8080" is asked on localhost);
--url takes a base URL instead, https:// for a serve with --tls-cert.

Exit codes: 0 ready (200), 1 not ready or unreachable (the reason on stderr),
2 bad flags.`,
		Example: `  amlscreen probe
  amlscreen probe --listen :8080
  amlscreen probe --url https://amlscreen.internal:8443 --ca-bundle /etc/amlscreen/bank-ca.pem`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runProbe(cmd.Context(), cmd.OutOrStdout(), cmd.Flags().Changed("listen"), &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.listen, "listen", "localhost:8080", "the --listen address of the serve to ask (an empty host is localhost)")
	fl.StringVar(&f.url, "url", "", "base URL of the serve to ask, instead of --listen")
	fl.DurationVar(&f.timeout, "timeout", 5*time.Second, "give up after this long")
	addCABundleFlag(fl, &f.caBundle)
	return cmd
}

// probeURL is the /readyz URL of --listen or --url.
func probeURL(f *probeFlags, listenGiven bool) (string, error) {
	if f.url != "" {
		if listenGiven {
			return "", usagef("--url: not with --listen")
		}
		u, err := url.Parse(f.url)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "", usagef("--url: %q is not an http:// or https:// base URL", f.url)
		}
		return strings.TrimSuffix(u.String(), "/") + "/readyz", nil
	}
	host, port, err := net.SplitHostPort(f.listen)
	if err != nil {
		return "", usagef("--listen: %v", err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/readyz", nil
}

func runProbe(ctx context.Context, stdout io.Writer, listenGiven bool, f *probeFlags) error {
	if f.timeout <= 0 {
		return usagef("--timeout: %v is not a positive duration", f.timeout)
	}
	target, err := probeURL(f, listenGiven)
	if err != nil {
		return err
	}
	roots, err := rootCAs(f.caBundle)
	if err != nil {
		return usageError{err}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return usagef("--url: %v", err)
	}
	client := &http.Client{Transport: tlsconf.Transport(roots)}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("not ready: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("not ready: GET %s: %s %s", target, resp.Status, strings.TrimSpace(string(body)))
	}
	fmt.Fprintf(stdout, "ready: GET %s: %s\n", target, resp.Status)
	return nil
}
