// Package peerlookup finds the peers of a cluster through the Kubernetes API. Outside the
// cluster it talks to the API through http.DefaultClient; inside, through a client whose
// transport bounds the wait for an answer. The request is made without a context and sent by a
// retry callback that captures it: on the default path nothing bounds the call. A request the
// callback makes itself with the caller's context is the caller's to bound. Both go through
// the default the package chose, kept in an unexported field: one finding, at the default.
package peerlookup

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"
)

type Client struct {
	httpClient *http.Client
	apiURL     string
	token      string
}

func New(inCluster bool, apiURL, caFile, token string) (*Client, error) {
	hc, err := buildClient(inCluster, caFile)
	if err != nil {
		return nil, err
	}
	return &Client{httpClient: hc, apiURL: apiURL, token: token}, nil
}

func buildClient(inCluster bool, caFile string) (*http.Client, error) {
	if !inCluster {
		return http.DefaultClient, nil // related "peerlookup.go:84: Client.Do sends a request without a context through it" "peerlookup.go:77: http.NewRequest gives the request no context" "peerlookup.go:114: Client.Ready sends a request with its caller's context through it" // want `http\.DefaultClient has no Timeout, so a stalled server hangs Client\.Do \(and 1 other call\); use a client with a Timeout`
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, errors.New("peerlookup: no certificate in CA file")
	}
	tr := &http.Transport{
		TLSClientConfig:       &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 10 * time.Second,
	}
	return &http.Client{Transport: tr}, nil
}

func retry(tries int, wait time.Duration, f func() error) error {
	var err error
	for i := 0; i < tries; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(wait)
	}
	return err
}

type endpoints struct {
	Subsets []struct {
		Addresses []struct {
			IP string `json:"ip"`
		} `json:"addresses"`
	} `json:"subsets"`
}

// Peers lists the addresses behind the endpoints object.
func (c *Client) Peers(ns, name string) ([]string, error) {
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/namespaces/%s/endpoints/%s", c.apiURL, ns, name), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	var rsp *http.Response
	err = retry(5, 2*time.Second, func() error {
		rsp, err = c.httpClient.Do(req)
		if err != nil {
			log.Printf("peerlookup: %s: %v, retrying", req.URL, err)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	defer rsp.Body.Close()
	var eps endpoints
	if err := json.NewDecoder(rsp.Body).Decode(&eps); err != nil {
		return nil, err
	}
	var out []string
	for _, s := range eps.Subsets {
		for _, a := range s.Addresses {
			out = append(out, a.IP)
		}
	}
	return out, nil
}

// Ready asks the API server whether it is ready, within the caller's context.
func (c *Client) Ready(ctx context.Context) error {
	return retry(3, time.Second, func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.apiURL+"/readyz", nil)
		if err != nil {
			return err
		}
		rsp, err := c.httpClient.Do(req)
		if err != nil {
			return err
		}
		rsp.Body.Close()
		if rsp.StatusCode != http.StatusOK {
			return fmt.Errorf("peerlookup: readyz: %s", rsp.Status)
		}
		return nil
	})
}
