// Package tlsclient builds the CLI's HTTP client, with a client certificate when the config
// names one, through a helper that takes the client by value and returns the copy's address:
// the copy has the settings of the client given to it.
package tlsclient

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"strings"
	"time"
)

// Auth is the auth section of the config file.
type Auth struct {
	Enabled  bool
	CertPath string
	KeyPath  string
	Insecure bool
	Token    string
}

// NewClient returns the client of every API call, with the client certificate of auth.
func NewClient(auth *Auth) (*http.Client, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	client := http.Client{ // related "tlsclient.go:91: login sends a request without a context through it" "tlsclient.go:64: http.NewRequest gives the request no context" // want `this http\.Client has no Timeout, so a stalled server hangs login, whose request has no deadline; set Timeout`
		Jar:       jar,
		Transport: http.DefaultTransport.(*http.Transport).Clone(),
	}
	if auth == nil || !auth.Enabled || auth.CertPath == "" {
		return &client, nil
	}
	client.Transport.(*http.Transport).TLSClientConfig = &tls.Config{InsecureSkipVerify: auth.Insecure}
	cert, err := tls.LoadX509KeyPair(auth.CertPath, auth.KeyPath)
	if err != nil {
		return nil, fmt.Errorf("client certificate: %w", err)
	}
	ca, err := os.ReadFile(auth.CertPath)
	if err != nil {
		return nil, err
	}
	return withCertificate(client, ca, cert), nil
}

func withCertificate(client http.Client, ca []byte, cert tls.Certificate) *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	cfg := client.Transport.(*http.Transport).TLSClientConfig
	cfg.MinVersion = tls.VersionTLS12
	cfg.RootCAs = pool
	cfg.Certificates = []tls.Certificate{cert}
	return &client
}

func login(client *http.Client, endpoint, token string) error {
	req, err := http.NewRequest(http.MethodGet, endpoint+"/login", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("login: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("login: %s: %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	return nil
}

// Login signs in to the API at endpoint.
func Login(auth *Auth, endpoint string) error {
	if auth == nil || auth.Token == "" {
		return errors.New("no token in the config")
	}
	client, err := NewClient(auth)
	if err != nil {
		return err
	}
	return login(client, endpoint, auth.Token)
}

// ---- Not reported: the copy, or the client given, has a Timeout ----

func withDeadline(client http.Client, d time.Duration) *http.Client {
	client.Timeout = d
	return &client
}

// LoginBounded signs in through a copy that the helper gives a Timeout.
func LoginBounded(auth *Auth, endpoint string) error {
	client := http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	return login(withDeadline(client, 30*time.Second), endpoint, auth.Token)
}

// LoginGiven signs in through a copy of a client that has a Timeout.
func LoginGiven(auth *Auth, endpoint string, ca []byte, cert tls.Certificate) error {
	client := http.Client{
		Timeout:   20 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{}},
	}
	return login(withCertificate(client, ca, cert), endpoint, auth.Token)
}
