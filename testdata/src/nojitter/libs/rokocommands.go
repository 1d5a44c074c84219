package libs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/buildkite/roko"
)

// A command-line tool whose commands are a package-level table of actions written as
// closures, as command frameworks declare them; each action retries the agent API.

type cliContext struct {
	args  []string
	flags map[string]string
}

type cliCommand struct {
	Name   string
	Usage  string
	Flags  []string
	Action func(c *cliContext) error
}

func apiFromFlags(c *cliContext) (*agentAPI, error) {
	token := c.flags["agent-access-token"]
	if token == "" {
		return nil, errors.New("missing --agent-access-token")
	}
	return &agentAPI{hc: &http.Client{Timeout: 60 * time.Second}, base: c.flags["endpoint"], token: token, log: slog.Default()}, nil
}

var MetaDataSetCommand = cliCommand{
	Name:  "meta-data-set",
	Usage: "Set data on a build",
	Flags: []string{"job", "agent-access-token", "endpoint"},
	Action: func(c *cliContext) error {
		ctx := context.Background()
		api, err := apiFromFlags(c)
		if err != nil {
			return err
		}
		if len(c.args) < 2 {
			return fmt.Errorf("usage: meta-data-set <key> <value>")
		}
		st := jobState{ID: c.flags["job"], State: c.args[0] + "=" + c.args[1]}
		err = roko.NewRetrier(
			roko.WithMaxAttempts(10),
			roko.WithStrategy(roko.Constant(5*time.Second)), // related "rokocommands.go:52: retry callback" // want `roko\.Retrier\.DoWithContext waits a fixed delay: clients that failed together retry together; add jitter`
		).DoWithContext(ctx, func(r *roko.Retrier) error {
			if err := api.put(ctx, "/jobs/"+st.ID+"/data/set", st); err != nil {
				api.log.Warn("set meta-data", "err", err, "retry", r.String())
				return err
			}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "failed to set meta-data:", err)
		}
		return err
	},
}

var StepUpdateCommand = cliCommand{
	Name:  "step-update",
	Usage: "Change an attribute of a step",
	Flags: []string{"step", "agent-access-token", "endpoint"},
	Action: func(c *cliContext) error {
		ctx := context.Background()
		api, err := apiFromFlags(c)
		if err != nil {
			return err
		}
		st := jobState{ID: c.flags["step"], State: c.args[0]}
		return roko.NewRetrier(
			roko.WithMaxAttempts(10),
			roko.WithStrategy(roko.Constant(5*time.Second)),
			roko.WithJitter(),
		).DoWithContext(ctx, func(r *roko.Retrier) error {
			return api.put(ctx, "/steps/"+st.ID, st)
		})
	},
}
