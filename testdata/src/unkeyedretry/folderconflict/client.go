// Package folderconflict: a cloud drive's storage backend. Its call helper retries every
// request on a 429 or a 5xx. Making a folder is a POST, but the drive refuses a second folder
// of the same name with a 409, which CreateDirectory takes as "it exists": a retry cannot make
// two. Uploading a file (a POST that makes a new version each time) and copying one have no
// such answer, and are reported.
package folderconflict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"time"
)

// DriveError is the drive's answer to a request it refused.
type DriveError struct {
	Status  int
	Message string
}

func (e DriveError) Error() string { return fmt.Sprintf("drive: %d %s", e.Status, e.Message) }

type Client struct {
	HTTP       *http.Client
	APIURL     string
	Token      string
	MaxRetries int
}

// call sends a request, again after a 429 or a 5xx, and hands back the body of a 2xx answer.
func (c *Client) call(url, method string, input any) (io.ReadCloser, error) {
	var payload []byte
	if input != nil {
		var err error
		if payload, err = json.Marshal(input); err != nil {
			return nil, err
		}
	}
	backoff := time.Second
	for i := 0; i < c.MaxRetries; i++ { // related "storage.go:31: a POST request sent here" "storage.go:45: a POST request sent here" // want `the retry loop in Client\.call retries a POST request and 1 other request without a key: a retry can repeat their effect`
		req, err := http.NewRequest(method, url, bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+c.Token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode < 300 {
			return resp.Body, nil
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			wait := backoff/2 + rand.N(backoff/2+1)
			log.Printf("drive: %s %s: status %d, retrying in %s", method, url, resp.StatusCode, wait)
			time.Sleep(wait)
			backoff *= 2
			continue
		}
		return nil, DriveError{Status: resp.StatusCode, Message: string(body)}
	}
	return nil, fmt.Errorf("drive: %s %s: giving up after %d attempts", method, url, c.MaxRetries)
}
