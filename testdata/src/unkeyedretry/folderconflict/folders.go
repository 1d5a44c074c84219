package folderconflict

import (
	"encoding/json"
	"fmt"
	"log"
	"path"
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
