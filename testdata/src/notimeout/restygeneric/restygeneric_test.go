package restygeneric

import (
	"net/http"
	"strings"
	"testing"
)

type fakeTransport struct{ status int }

func (f fakeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: f.status, Body: http.NoBody, Header: http.Header{}, Request: req}, nil
}

// The test hands the client's transport to a fake: that does not bound the program's calls.
func TestList(t *testing.T) {
	t.Setenv("DEVAPI_BASE_URL", "http://devapi.test")
	c, err := NewClient()
	if err != nil {
		t.Fatal(err)
	}
	c.RestyClient().GetClient().Transport = fakeTransport{status: 200}
	if _, _, err := c.Devices.List("acme", &ListParams{Model: "MX"}); err != nil && !strings.Contains(err.Error(), "status") {
		t.Fatal(err)
	}
}
