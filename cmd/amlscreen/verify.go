package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/sign"
	"github.com/amlscreen/amlscreen/tlsconf"
)

func init() { register(newVerifyCmd) }

type verifyFlags struct {
	body      string
	signature string
	keysURL   string
	apiKey    string
	keysDir   string
	timeout   time.Duration
	caBundle  string
}

func newVerifyCmd() *cobra.Command {
	var f verifyFlags
	c := &cobra.Command{
		Use:   "verify --body FILE --signature HEADER (--keys-url URL | --keys-dir DIR)",
		Short: "Check the x-service-signature of a response or webhook body",
		Long: `verify checks a body signature the way docs/API.md "Keys and signatures"
tells clients to: it reads kid and sig from the header, fetches that key
(never "current") from GET {URL}/v1/keys/{kid} or from a local keyring
directory, rejects a REVOKED key, accepts ACTIVE and RETIRED ones, and
checks the ES256 signature over the exact bytes of FILE ("-" for stdin;
decompressed if it arrived gzipped).

--keys-url is the service root, for the hosted service or amlscreen serve; the
API key comes from --api-key or the AMLSCREEN_API_KEY environment variable and
is never printed.

Exit codes: 0 the signature is valid, 1 it is not (or the key could not be
looked up), with the reason on one line, 2 bad flags.`,
		Example: `  curl -sD headers.txt -o sources.json -H "x-api-key: $AMLSCREEN_API_KEY" http://localhost:8080/v1/getSourceList
  amlscreen verify --body sources.json --signature "$(grep -i x-service-signature headers.txt)" --keys-url http://localhost:8080
  amlscreen verify --body webhook.json --signature "v1,kid=k-...,sig=MEUC..." --keys-dir /var/lib/amlscreen/signing-keys`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runVerify(cmd.InOrStdin(), cmd.OutOrStdout(), &f) },
	}
	fl := c.Flags()
	fl.StringVar(&f.body, "body", "", `file holding the body exactly as received ("-" reads stdin)`)
	fl.StringVar(&f.signature, "signature", "", `value of the x-service-signature header ("x-service-signature:" in front is allowed)`)
	fl.StringVar(&f.keysURL, "keys-url", "", "service root URL to fetch keys from (GET URL/v1/keys/{kid})")
	fl.StringVar(&f.apiKey, "api-key", "", "API key for --keys-url (default $AMLSCREEN_API_KEY)")
	fl.StringVar(&f.keysDir, "keys-dir", "", "local keyring directory to take keys from instead of --keys-url")
	fl.DurationVar(&f.timeout, "timeout", 30*time.Second, "time limit for the key lookup")
	addCABundleFlag(fl, &f.caBundle)
	return c
}

func runVerify(stdin io.Reader, stdout io.Writer, f *verifyFlags) error {
	if f.body == "" {
		return usagef("--body: required: the file holding the signed body")
	}
	header := strings.TrimSpace(f.signature)
	if len(header) > len(sign.HeaderName) && strings.EqualFold(header[:len(sign.HeaderName)+1], sign.HeaderName+":") {
		header = strings.TrimSpace(header[len(sign.HeaderName)+1:])
	}
	if header == "" {
		return usagef("--signature: required: the value of the %s header", sign.HeaderName)
	}
	if (f.keysURL == "") == (f.keysDir == "") {
		return usagef("--keys-url: give either --keys-url or --keys-dir")
	}
	if f.timeout <= 0 {
		return usagef("--timeout: %v is not a positive duration", f.timeout)
	}
	var fetch sign.Fetcher
	if f.keysURL != "" {
		if !strings.HasPrefix(f.keysURL, "http://") && !strings.HasPrefix(f.keysURL, "https://") {
			return usagef("--keys-url: %q is not an http:// or https:// URL", f.keysURL)
		}
		apiKey := f.apiKey
		if apiKey == "" {
			apiKey = os.Getenv("AMLSCREEN_API_KEY")
		}
		if apiKey == "" {
			return usagef("--api-key: required with --keys-url (or set AMLSCREEN_API_KEY)")
		}
		roots, err := rootCAs(f.caBundle)
		if err != nil {
			return err
		}
		fetch = sign.HTTPFetcher(f.keysURL, apiKey, &http.Client{Timeout: f.timeout, Transport: tlsconf.Transport(roots)})
	} else {
		if f.caBundle != "" {
			return usagef("--ca-bundle: only with --keys-url")
		}
		k, err := sign.LoadKeyring(f.keysDir)
		if errors.Is(err, sign.ErrNoKeyring) {
			return usagef("--keys-dir: %v", err)
		}
		if err != nil {
			return err
		}
		fetch = k.Fetch
	}

	var body []byte
	var err error
	if f.body == "-" {
		body, err = io.ReadAll(stdin)
	} else {
		body, err = os.ReadFile(f.body)
	}
	if err != nil {
		return usagef("--body: %v", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), f.timeout)
	defer cancel()
	if err := sign.NewVerifier(fetch, 0).Verify(ctx, body, header); err != nil {
		// One line whatever the key service put in its error message.
		return fmt.Errorf("invalid signature: %s", strings.Join(strings.Fields(err.Error()), " "))
	}
	kid, _, _ := sign.ParseHeader(header)
	fmt.Fprintf(stdout, "valid signature by key %s\n", kid)
	return nil
}
