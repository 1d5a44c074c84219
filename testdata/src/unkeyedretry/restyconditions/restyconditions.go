// Package restyconditions sends a desktop agent's sensor updates and events to its home server
// through resty v2 clients with retries. resty v2 retries a failed transport by default, but a
// client given retry conditions retries only what one of them says: a condition that holds
// only for 429 Too Many Requests resends nothing the server may have applied. A condition that
// also holds for a transport error or a 5xx resends a POST whose effect is unknown.
package restyconditions

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/go-resty/resty/v2"
)

// Event is one event the agent fires.
type Event struct {
	Type string         `json:"event_type"`
	Data map[string]any `json:"event_data"`
}

// Update is one sensor's new state.
type Update struct {
	ID    string `json:"unique_id"`
	State any    `json:"state"`
	Icon  string `json:"icon,omitempty"`
}

type result struct {
	Success bool   `json:"success"`
	Error   string `json:"error,omitempty"`
}

func throttled(r *resty.Response, _ error) bool {
	return r.StatusCode() == http.StatusTooManyRequests
}

// ---- Not reported: the clients go round only on a 429 ----

// Agent posts to the server's webhook.
type Agent struct {
	api     *resty.Client
	webhook string
	log     *log.Logger
}

// New returns an agent whose client retries only throttled requests.
func New(server, webhook, token string) *Agent {
	api := resty.New().
		SetBaseURL(server).
		SetTimeout(15*time.Second).
		SetHeader("Authorization", "Bearer "+token).
		SetRetryCount(5).
		SetRetryWaitTime(5 * time.Second).
		SetRetryMaxWaitTime(20 * time.Second).
		AddRetryCondition(func(r *resty.Response, _ error) bool {
			return r.StatusCode() == http.StatusTooManyRequests
		})
	return &Agent{api: api, webhook: webhook, log: log.Default()}
}

// Fire sends an event.
func (a *Agent) Fire(ctx context.Context, ev Event) error {
	var res result
	resp, err := a.api.R().SetContext(ctx).SetBody(ev).SetResult(&res).Post(a.webhook)
	if err != nil {
		return fmt.Errorf("fire %s: %w", ev.Type, err)
	}
	if resp.IsError() || !res.Success {
		return fmt.Errorf("fire %s: %d: %s", ev.Type, resp.StatusCode(), res.Error)
	}
	return nil
}

// NewNamed returns an agent whose client's retry condition is a named function.
func NewNamed(server, webhook string) *Agent {
	api := resty.New().SetBaseURL(server).SetTimeout(15 * time.Second).SetRetryCount(3)
	api.AddRetryCondition(throttled)
	return &Agent{api: api, webhook: webhook, log: log.Default()}
}

// Register registers sensors.
func (a *Agent) Register(ctx context.Context, sensors []Update) error {
	body, err := json.Marshal(map[string]any{"type": "register_sensor", "data": sensors})
	if err != nil {
		return err
	}
	resp, err := a.api.R().SetContext(ctx).SetHeader("Content-Type", "application/json").SetBody(body).Post(a.webhook)
	if err != nil {
		return err
	}
	if resp.IsError() {
		a.log.Printf("register: %d", resp.StatusCode())
		return fmt.Errorf("register: %d", resp.StatusCode())
	}
	return nil
}

// ---- Reported: the condition also goes round on a transport error or a 5xx ----

// Reporter posts sensor updates.
type Reporter struct {
	api     *resty.Client
	webhook string
}

// NewReporter returns a reporter whose client retries failures too.
func NewReporter(server, webhook string) *Reporter {
	api := resty.New().
		SetBaseURL(server).
		SetTimeout(15 * time.Second).
		SetRetryCount(5).
		AddRetryCondition(func(r *resty.Response, err error) bool {
			return err != nil || r.StatusCode() >= http.StatusInternalServerError
		})
	return &Reporter{api: api, webhook: webhook}
}

// Send posts the updates.
func (rp *Reporter) Send(ctx context.Context, updates []Update) error {
	resp, err := rp.api.R().SetContext(ctx).SetBody(updates).Post(rp.webhook) // related "restyconditions.go:124: self-retrying client call" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
	if err != nil {
		return err
	}
	if resp.IsError() {
		return fmt.Errorf("update sensors: %d", resp.StatusCode())
	}
	return nil
}
