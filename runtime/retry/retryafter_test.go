package retry

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"", 0, false},
		{"7", 7 * time.Second, true},
		{"0", 0, false},
		{"-3", 0, false},
		{"+3", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{" 7", 0, false},
		{"99999999999999999999999", 1<<63 - 1, true},
		{"9999999999999", 1<<63 - 1, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, false},
		{now.Format(http.TimeFormat), 0, false},
		{now.Add(2 * time.Second).Format(time.RFC850), 2 * time.Second, true},
		{now.Add(3 * time.Second).Format(time.ANSIC), 3 * time.Second, true},
		{"Mon, 99 Foo 2025 00:00:00 GMT", 0, false},
	}
	for _, c := range cases {
		h := http.Header{}
		if c.value != "" {
			h.Set("Retry-After", c.value)
		}
		got, ok := parseRetryAfter(h, now)
		assert.Equal(t, c.ok, ok, "%q", c.value)
		assert.Equal(t, c.want, got, "%q", c.value)
	}
	_, ok := parseRetryAfter(nil, now)
	assert.False(t, ok, "nil header")
}

type askingError struct{ d time.Duration }

func (e askingError) Error() string             { return "slow down" }
func (e askingError) RetryAfter() time.Duration { return e.d }

func TestRetryAfterFromErrors(t *testing.T) {
	now := time.Now()
	h := http.Header{"Retry-After": {"4"}}
	assert.Equal(t, 4*time.Second, retryAfter(&HTTPError{StatusCode: 503, Header: h}, now))
	assert.Equal(t, 4*time.Second, retryAfter(fmt.Errorf("call: %w", &HTTPError{StatusCode: 503, Header: h}), now), "wrapped")
	assert.Equal(t, 4*time.Second, retryAfter(fmt.Errorf("%w and %w", askingError{}, &HTTPError{Header: h}), now), "multi-wrapped")
	assert.Equal(t, 2*time.Second, retryAfter(askingError{2 * time.Second}, now), "RetryAfter method")
	assert.Equal(t, 2*time.Second, retryAfter(&HTTPError{Err: askingError{2 * time.Second}}, now), "header absent: look inside")
	assert.Equal(t, time.Duration(0), retryAfter(askingError{-time.Second}, now), "negative ignored")
	assert.Equal(t, time.Duration(0), retryAfter(fmt.Errorf("plain"), now))
	assert.Equal(t, time.Duration(0), retryAfter(nil, now))
	e := &HTTPError{Header: http.Header{"Retry-After": {time.Now().Add(time.Hour).Format(http.TimeFormat)}}}
	assert.InDelta(t, float64(time.Hour), float64(e.RetryAfter()), float64(2*time.Second), "HTTPError.RetryAfter uses the real clock")
}
