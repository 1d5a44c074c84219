package attempts

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/go-resty/resty/v2"
	"github.com/google/uuid"
	"google.golang.org/grpc/metadata"
)

// Every sink kind with an attempt body that checks errors, logs and waits.

type ledger interface {
	Post(ctx context.Context, account string, amount int64) error
}

type transferBody struct {
	From           string `json:"from"`
	To             string `json:"to"`
	Amount         int64  `json:"amount"`
	IdempotencyKey string `json:"idempotency_key"`
}

type entry struct {
	Account string `json:"account"`
	Token   string `json:"client_token"`
}

// ---- Reported ----

func PostEntry(ctx context.Context, l ledger, account string, amount int64) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		md := metadata.Pairs("authorization", "Bearer t", "idempotency-key", uuid.NewString(), "x-request-id", uuid.NewString()) // related "sinks.go:43: retry loop" "sinks.go:44: sent as gRPC metadata \"idempotency-key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		if err = l.Post(metadata.NewOutgoingContext(ctx, md), account, amount); err == nil {
			return nil
		}
		log.Printf("ledger post %s: attempt %d: %v", account, attempt, err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff(attempt)):
		}
	}
	return err
}

func (c *Client) TransferJSON(ctx context.Context, from, to string, amount int64) error {
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ {
		tb := transferBody{From: from, To: to, Amount: amount}
		tb.IdempotencyKey = "tr_" + strconv.FormatInt(time.Now().UnixNano(), 36) // related "sinks.go:60: retry loop" "sinks.go:62: sent as field IdempotencyKey" // want `time\.Now makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		body, err := json.Marshal(tb)
		if err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/transfers", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.http.Do(req)
		if err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		if lastErr = classify(resp); lastErr == nil || !errors.Is(lastErr, errRetryable) {
			return lastErr
		}
		time.Sleep(backoff(attempt))
	}
	return lastErr
}

func (c *Client) BookEntry(ctx context.Context, account string) error {
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ {
		token, err := uuid.NewV7() // related "sinks.go:89: retry loop" "sinks.go:94: sent as field Token" // want `uuid\.NewV7 makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		if err != nil {
			return err
		}
		body, err := json.Marshal(entry{Account: account, Token: token.String()})
		if err != nil {
			return err
		}
		resp, err := c.http.Post(c.baseURL+"/v1/entries", "application/json", bytes.NewReader(body))
		if err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		if lastErr = classify(resp); lastErr == nil {
			return nil
		}
	}
	return lastErr
}

func (c *Client) Hold(ctx context.Context, account string, amount int64) error {
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ {
		payload := map[string]any{"account": account, "amount": amount, "idempotency_key": uuid.NewString()} // related "sinks.go:114: retry loop" "sinks.go:115: sent as map key \"idempotency_key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		body, err := json.Marshal(payload)
		if err != nil {
			return err
		}
		resp, err := c.http.Post(c.baseURL+"/v1/holds", "application/json", bytes.NewReader(body))
		if err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		if lastErr = classify(resp); lastErr == nil {
			return nil
		}
		time.Sleep(backoff(attempt))
	}
	return lastErr
}

func LaunchInstance(ctx context.Context, c *ec2.Client, image string) (*ec2.RunInstancesOutput, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		in := &ec2.RunInstancesInput{ImageId: aws.String(image)}
		if image == "" {
			return nil, errors.New("no image")
		}
		in.ClientToken = aws.String(fmt.Sprintf("launch-%s", uuid.NewString())) // related "sinks.go:137: retry loop" "sinks.go:142: sent as field ClientToken" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		out, err := c.RunInstances(ctx, in)
		if err == nil {
			return out, nil
		}
		log.Printf("run instances: %v", err)
		lastErr = err
		time.Sleep(backoff(attempt))
	}
	return nil, lastErr
}

func RestyCharge(ctx context.Context, rc *resty.Client, amount int64) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := rc.R().
			SetContext(ctx).
			SetHeader("Content-Type", "application/json").
			SetHeader("Idempotency-Key", uuid.NewString()). // related "sinks.go:156: retry loop" "sinks.go:160: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
			SetBody(map[string]int64{"amount": amount}).
			Post("https://api.example.com/v1/charges")
		if err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		if resp.StatusCode() < 500 {
			return nil
		}
		lastErr = fmt.Errorf("status %d", resp.StatusCode())
	}
	return lastErr
}

// setKey is the package's own helper that puts the key on a request.
func setKey(req *http.Request, key string) {
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
}

// mintAndSend makes a key and sends the request on every call.
func (c *Client) mintAndSend(ctx context.Context, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Idempotency-Key", uuid.NewString())
	return c.http.Do(req)
}

func (c *Client) Close(ctx context.Context, account string) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/accounts/"+account+"/close", nil)
		if err != nil {
			return err
		}
		key := uuid.NewString() // related "sinks.go:196: retry loop" "sinks.go:202: sent as header \"Idempotency-Key\" via setKey" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		setKey(req, key)
		resp, err := c.http.Do(req)
		if err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		return classify(resp)
	}
	return lastErr
}

func (c *Client) Reopen(ctx context.Context, account string) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := c.mintAndSend(ctx, "/v1/accounts/"+account+"/reopen") // related "sinks.go:217: retry loop" "sinks.go:217: key made by uuid.NewString at sinks.go:190" // want `Client\.mintAndSend makes a new idempotency key per call: each attempt of the retry loop sends a different one`
		if err != nil {
			lastErr = err
			log.Printf("reopen %s: %v", account, err)
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		if lastErr = classify(resp); lastErr == nil {
			return nil
		}
	}
	return lastErr
}

// A nil or empty test of another header or field is no guard of the key.
func (c *Client) CloseWithAuth(ctx context.Context, req *http.Request, tb *transferBody) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if req.Header.Get("Authorization") == "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
			req.Header.Set("Idempotency-Key", uuid.NewString()) // related "sinks.go:236: retry loop" "sinks.go:239: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		}
		if tb.From == "" {
			tb.IdempotencyKey = uuid.NewString() // related "sinks.go:236: retry loop" "sinks.go:242: sent as field IdempotencyKey" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		}
		resp, err := c.http.Do(req)
		if err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		return classify(resp)
	}
	return lastErr
}

// ---- Not reported ----

// Per-attempt request ids in metadata, the key made before the loop.
func PostEntryKeyed(ctx context.Context, l ledger, account string, amount int64) error {
	key := uuid.NewString()
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		md := metadata.Pairs("idempotency-key", key, "x-request-id", uuid.NewString())
		if err = l.Post(metadata.NewOutgoingContext(ctx, md), account, amount); err == nil {
			return nil
		}
		log.Printf("ledger post %s: attempt %d: %v", account, attempt, err)
		time.Sleep(backoff(attempt))
	}
	return err
}

// The body's key filled in once: the test is of the field itself.
func (c *Client) TransferJSONOnce(ctx context.Context, tb *transferBody) error {
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ {
		if len(tb.IdempotencyKey) == 0 {
			tb.IdempotencyKey = uuid.NewString()
		}
		body, err := json.Marshal(tb)
		if err != nil {
			return err
		}
		resp, err := c.http.Post(c.baseURL+"/v1/transfers", "application/json", bytes.NewReader(body))
		if err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		return classify(resp)
	}
	return lastErr
}

// The header filled in only when no value is there yet, read back with Values.
func (c *Client) CloseOnce(ctx context.Context, req *http.Request) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if len(req.Header.Values("Idempotency-Key")) == 0 {
			req.Header.Set("Idempotency-Key", uuid.NewString())
		}
		resp, err := c.http.Do(req)
		if err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		return classify(resp)
	}
	return lastErr
}
