// Package devcluster starts a key-value server on this machine for integration suites and
// fills it with fixtures. Every request goes to the addresses it made for the process it
// started (http://0.0.0.0:<port>, kept in a package variable): a local process, not a remote
// dependency, so neither its wait for the server nor its fixture calls are reported. The
// mirror it copies fixtures from is configured and remote: that call is.
package devcluster

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"time"
)

// URLs are the client addresses of the server Start ran.
var URLs []string

// Mirror is where fixtures are copied from.
var Mirror = os.Getenv("FIXTURE_MIRROR")

var proc *exec.Cmd

func localURLs(ports ...int) []string {
	urls := make([]string, len(ports))
	for i, p := range ports {
		urls[i] = fmt.Sprintf("http://0.0.0.0:%d", p)
	}
	return urls
}

func freePort() int { return 20000 + rand.Intn(20000) }

// Start runs the server binary and waits until it answers.
func Start(binary, dataDir string) error {
	if proc != nil {
		return nil
	}
	URLs = localURLs(freePort(), freePort())
	cmd := exec.Command(binary, "-data-dir", dataDir, "-listen", strings.Join(URLs, ","))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	ready := make(chan struct{})
	go func() {
		for {
			resp, err := http.Get(URLs[0] + "/health")
			if err == nil {
				resp.Body.Close()
				close(ready)
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	select {
	case <-ready:
		proc = cmd
		return nil
	case <-time.After(10 * time.Second):
		out, _ := io.ReadAll(stderr)
		log.Printf("server did not start: %s", out)
		return errors.New("devcluster: start timed out")
	}
}

// Put stores value under key.
func Put(key, value string) error {
	form := url.Values{"value": {value}}
	req, err := http.NewRequest(http.MethodPut, URLs[0]+"/v2/keys/"+key, bytes.NewBufferString(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("devcluster: put %s: %s", key, resp.Status)
	}
	return nil
}

// Get reads the value under key.
func Get(key string) (string, error) {
	resp, err := http.Get(URLs[0] + "/v2/keys/" + key)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// Copy fetches a fixture from the mirror and stores it.
func Copy(key string) error {
	resp, err := http.Get(Mirror + "/fixtures/" + key) // want `http\.Get uses http\.DefaultClient \(no timeout\), so a stalled server hangs this call; use a client with a Timeout`
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	return Put(key, string(b))
}

// Endpoint is the shared cluster's address, which importers set; the default names this
// machine, but what runs is what they set.
var Endpoint = "http://localhost:2379"

// Version asks the shared cluster for its version.
func Version() (string, error) {
	resp, err := http.Get(Endpoint + "/version") // want `http\.Get uses http\.DefaultClient \(no timeout\), so a stalled server hangs this call; use a client with a Timeout`
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}
