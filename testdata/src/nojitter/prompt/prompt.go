// Package prompt is a CLI that pushes a config to a server and, when the server rejects it,
// asks the user whether to edit it and try again: the user decides when the next round goes,
// so the loop does not hammer the server. A loop that goes round on its own does.
package prompt

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"
)

var client = &http.Client{Timeout: 30 * time.Second}

func push(ctx context.Context, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/yaml")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("server rejected the config: %s: %s", resp.Status, bytes.TrimSpace(msg))
	}
	return nil
}

func edit(ctx context.Context, path string) error {
	cmd := exec.CommandContext(ctx, "vi", path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd.Run()
}

// EditAndPush opens the editor until the server takes the config or the user gives up.
func EditAndPush(ctx context.Context, url, path string) error {
	for {
		if err := edit(ctx, path); err != nil {
			return fmt.Errorf("editor: %w", err)
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		err = push(ctx, url, body)
		if err == nil {
			return nil
		}
		fmt.Fprintln(os.Stderr, err)
		fmt.Print("Edit again? (Y/n) ")
		var answer string
		_, _ = fmt.Scanln(&answer)
		if strings.HasPrefix(strings.ToLower(answer), "n") {
			return fmt.Errorf("aborted: %w", err)
		}
	}
}

// PushUntilAccepted asks on a reader made on standard input.
func PushUntilAccepted(ctx context.Context, url string, body []byte) error {
	in := bufio.NewReader(os.Stdin)
	for {
		err := push(ctx, url, body)
		if err == nil {
			return nil
		}
		fmt.Fprintf(os.Stderr, "%v\nPress enter to retry, or type q to quit: ", err)
		line, rerr := in.ReadString('\n')
		if rerr != nil || strings.TrimSpace(line) == "q" {
			return err
		}
	}
}

// PushAgain goes round on its own, at once.
func PushAgain(ctx context.Context, url string, body []byte) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ { // related "prompt.go:88: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		if err = push(ctx, url, body); err == nil {
			return nil
		}
		fmt.Fprintf(os.Stderr, "attempt %d: %v\n", attempt+1, err)
	}
	return err
}
