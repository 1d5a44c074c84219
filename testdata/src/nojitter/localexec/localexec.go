// Package localexec is a node agent that programs this machine: it runs the local IPsec
// control program and waits for the CNI interface to come up, retrying with fixed waits. Both
// stay on this machine (a program run through a seam that hands back the *exec.Cmd, and
// interface discovery behind a nil test hook): no herd of clients, not reported. Its
// registration with the cluster's API retries with a fixed wait: reported.
package localexec

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"time"

	"nojitter/localexec/command"
	"nojitter/localexec/ifaces"
)

const whackTimeout = 30 * time.Second

// whack runs the IPsec control program, three tries a second apart.
func whack(args ...string) error {
	var err error
	for i := 0; i < 3; i++ {
		err = func() error {
			ctx, cancel := context.WithTimeout(context.Background(), whackTimeout)
			defer cancel()
			cmd := exec.CommandContext(ctx, "/usr/sbin/ipsec", append([]string{"whack"}, args...)...)
			cmd.Stdout = os.Stdout
			cmd.Stderr = os.Stderr
			return command.New(cmd).Run()
		}()
		if err == nil {
			break
		}
		slog.Warn("whack failed", "args", args, "err", err)
		time.Sleep(time.Second)
	}
	if err != nil {
		return fmt.Errorf("whack %v: %w", args, err)
	}
	return nil
}

// destroySet removes an ipset, again while the kernel says it is in use.
func destroySet(name string) error {
	var out []byte
	var err error
	for i := 0; i < 20; i++ {
		out, err = command.New(exec.Command("ipset", "destroy", name)).CombinedOutput()
		if err == nil || !bytes.Contains(out, []byte("is in use")) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// waitForCNI waits for the CNI interface, a fixed 5 s between looks.
func waitForCNI(cidrs []string) (*ifaces.Interface, error) {
	var last error
	for i := 0; i < 12; i++ {
		iface, err := ifaces.Discover(cidrs)
		if err == nil {
			return iface, nil
		}
		last = err
		slog.Info("waiting for the CNI interface", "err", err)
		time.Sleep(5 * time.Second)
	}
	return nil, last
}

// register tells the cluster's API about this node, a fixed 3 s between tries.
func register(ctx context.Context, hc *http.Client, api, node string) error {
	var err error
	for i := 0; i < 10; i++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPut, api+"/nodes/"+node, nil)
		if err != nil {
			return err
		}
		var resp *http.Response
		if resp, err = hc.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(3 * time.Second) // related "localexec.go:80: retry loop" // want `retry loop waits a fixed 3s between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}

// Start programs the node.
func Start(ctx context.Context, cidrs []string) error {
	if err := whack("--listen"); err != nil {
		return err
	}
	if err := destroySet("stale"); err != nil {
		return err
	}
	iface, err := waitForCNI(cidrs)
	if err != nil {
		return err
	}
	return register(ctx, &http.Client{Timeout: 10 * time.Second}, "https://api.cluster.local", iface.Name)
}
