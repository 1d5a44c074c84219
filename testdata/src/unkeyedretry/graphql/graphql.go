// Package graphql lists a folder and renames a file through a GraphQL endpoint, trying three
// times. A query only reads: sent again it changes nothing, so it is not reported. A
// mutation is reported.
package graphql

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

var client = &http.Client{Timeout: 20 * time.Second}

type listing struct {
	Data struct {
		Folder struct {
			Items []struct {
				Name string `json:"name"`
			} `json:"items"`
		} `json:"folder"`
	} `json:"data"`
}

func post(endpoint, body string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return client.Do(req)
}

// List returns the names in a folder.
func List(endpoint, folder string) ([]string, error) {
	body := fmt.Sprintf(`{"query":"query ($path: String!) { folder(path: $path) { items { name } } }","variables":{"path":%q}}`, folder)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		req, rerr := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
		if rerr != nil {
			return nil, rerr
		}
		req.Header.Set("Content-Type", "application/json")
		var resp *http.Response
		resp, err = client.Do(req)
		if err != nil {
			continue
		}
		var out listing
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		names := make([]string, 0, len(out.Data.Folder.Items))
		for _, it := range out.Data.Folder.Items {
			names = append(names, it.Name)
		}
		return names, nil
	}
	return nil, err
}

// Rename renames a file: a mutation, retried without a key.
func Rename(endpoint, id, name string) error {
	body := fmt.Sprintf(`{"query":"mutation ($id: ID!, $name: String!) { rename(id: $id, name: $name) { id } }","variables":{"id":%q,"name":%q}}`, id, name)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var resp *http.Response
		resp, err = post(endpoint, body) // related "graphql.go:69: retry loop", "graphql.go:32: sent here by post" // want `a POST request is retried with no idempotency key; post must send one made before the retries`
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			err = fmt.Errorf("rename: %s", resp.Status)
			continue
		}
		return nil
	}
	return err
}

// Move copies a file into a folder and deletes the original, both again on a failure: one
// scope resending two mutations, one finding.
func Move(endpoint, id, folder string) error {
	copyBody := fmt.Sprintf(`{"query":"mutation { copy(id: %q, to: %q) { id } }"}`, id, folder)
	deleteBody := fmt.Sprintf(`{"query":"mutation { delete(id: %q) }"}`, id)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var resp *http.Response
		if resp, err = post(endpoint, copyBody); err != nil { // related "graphql.go:91: retry loop", "graphql.go:32: sent here by post", "graphql.go:97: also resends a POST request without a key" // want `a POST request is retried with no idempotency key; post must send one made before the retries`
			continue
		}
		resp.Body.Close()
		if resp, err = post(endpoint, deleteBody); err != nil {
			continue
		}
		resp.Body.Close()
		return nil
	}
	return err
}
