package folderconflict

import (
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"path"
	"strings"
)

// CreateFolder makes a folder named by its path and returns its id; the drive's refusal comes
// back as it is.
func (c *Client) CreateFolder(dir string) (string, error) {
	body, err := c.call(c.APIURL+"/folders", "POST", map[string]string{"path": dir})
	if err != nil {
		return "", err
	}
	defer body.Close()
	var it item
	if err := json.NewDecoder(body).Decode(&it); err != nil {
		return "", fmt.Errorf("decoding folder %s: %w", dir, err)
	}
	return it.ID, nil
}

// Storage keeps a backup's files on the drive.
type Storage struct {
	client *Client
	ids    map[string]string
}

// EnsureDir makes dir, and takes a folder that exists already (made by another thread) as made.
func (s *Storage) EnsureDir(dir string) error {
	id, err := s.client.CreateFolder(path.Clean(dir))
	if err != nil {
		if e, ok := err.(DriveError); ok && e.Status == 409 {
			log.Printf("drive: %s exists", dir)
		} else {
			return err
		}
	}
	if id != "" {
		s.ids[dir] = id
	}
	return nil
}

// SessionToken asks the drive for a session token, once; its named results are what the deferred
// log reads (the error it returns is loaded from, and stored back to, its own slot).
func (c *Client) SessionToken(refresh string) (token string, err error) { // want SessionToken:"sends POST /oauth/token without an idempotency key"
	defer func() {
		if err != nil {
			log.Printf("drive: token: %v", err)
		}
	}()
	req, err := http.NewRequest(http.MethodPost, c.APIURL+"/oauth/token", strings.NewReader("refresh_token="+refresh))
	if err != nil {
		return token, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return token, err
	}
	defer resp.Body.Close()
	var out struct {
		Token string `json:"session"`
	}
	if err = json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return token, err
	}
	return out.Token, nil
}
