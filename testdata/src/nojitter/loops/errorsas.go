package loops

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// A token exchange that backs off exponentially, or as long as a typed error of the package
// says when the server named a wait: errors.As fills that error from the program's own chain,
// not from data, so the doubling is still the wait most failures get.

type exchangeHTTPError struct {
	status        int
	retryAfter    time.Duration
	hasRetryAfter bool
}

func (e *exchangeHTTPError) Error() string { return fmt.Sprintf("exchange: HTTP %d", e.status) }

const exchangeInitialDelay = 250 * time.Millisecond

func exchangeDelay(err error, attempt int) time.Duration {
	delay := exchangeInitialDelay << attempt
	var status *exchangeHTTPError
	if errors.As(err, &status) && status.hasRetryAfter {
		delay = status.retryAfter
	}
	return min(delay, 30*time.Second)
}

type tokenExchanger struct {
	hc  *http.Client
	url string
}

func (x *tokenExchanger) once(ctx context.Context) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, x.url, nil)
	if err != nil {
		return "", err
	}
	resp, err := x.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", &exchangeHTTPError{status: resp.StatusCode}
	}
	return resp.Header.Get("X-Token"), nil
}

func (x *tokenExchanger) Exchange(ctx context.Context) (string, error) {
	for attempt := 0; ; attempt++ {
		tok, err := x.once(ctx)
		if err == nil || attempt+1 >= 5 {
			return tok, err
		}
		timer := time.NewTimer(exchangeDelay(err, attempt)) // related "errorsas.go:56: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		select {
		case <-ctx.Done():
			timer.Stop()
			return "", ctx.Err()
		case <-timer.C:
		}
	}
}
