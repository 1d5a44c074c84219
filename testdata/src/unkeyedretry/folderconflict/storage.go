package folderconflict

import (
	"encoding/json"
	"fmt"
	"log"
)

// CreateDirectory makes a folder under parent; one that exists already is no error.
func (c *Client) CreateDirectory(parent, name string) error {
	params := map[string]any{"name": name, "folder": map[string]int{}}
	body, err := c.call(c.APIURL+"/items/"+parent+"/children", "POST", params)
	if err != nil {
		if e, ok := err.(DriveError); ok && e.Status == 409 {
			log.Printf("drive: folder %s/%s exists", parent, name)
			return nil
		}
		return fmt.Errorf("creating %s/%s: %w", parent, name, err)
	}
	return body.Close()
}

type item struct {
	ID   string `json:"id"`
	Size int64  `json:"size"`
}

// UploadFile stores content as a new file under parent.
func (c *Client) UploadFile(parent, name string, content []byte) (string, error) {
	params := map[string]any{"name": name, "parent": parent, "content": content}
	body, err := c.call(c.APIURL+"/items/"+parent+"/files", "POST", params)
	if err != nil {
		return "", fmt.Errorf("uploading %s: %w", name, err)
	}
	defer body.Close()
	var it item
	if err := json.NewDecoder(body).Decode(&it); err != nil {
		return "", err
	}
	return it.ID, nil
}

// CopyFile copies a file into another folder; a 409 there means a name clash, which it reports.
func (c *Client) CopyFile(id, toParent string) error {
	body, err := c.call(c.APIURL+"/items/"+id+"/copies", "POST", map[string]string{"parent": toParent})
	if err != nil {
		if e, ok := err.(DriveError); ok && e.Status == 409 {
			return fmt.Errorf("a file of that name is in %s already: %w", toParent, err)
		}
		return err
	}
	return body.Close()
}
