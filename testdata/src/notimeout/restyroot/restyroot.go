// Package restyroot is the SDK's client: it makes the resty client that every call of
// package restyapi goes through, without a timeout, and nothing the calls send has a
// deadline: one cause, reported where the client is made.
package restyroot

import (
	"sync"
	"time"

	"github.com/go-resty/resty/v2"

	"notimeout/restyapi"
)

type Config struct {
	SiteURL    string
	UserAgent  string
	MaxRetries int
}

type Client struct {
	mu         sync.Mutex
	httpClient *resty.Client
	config     Config
	Folders    *Folders
}

type Folders struct{ client *Client }

func New(config Config) *Client {
	c := &Client{}
	c.Folders = &Folders{client: c}
	c.Configure(config)
	return c
}

func (c *Client) Configure(config Config) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if config.UserAgent == "" {
		config.UserAgent = "restyroot"
	}
	c.config = config
	if c.httpClient == nil {
		c.httpClient = resty.New().SetHeader("User-Agent", config.UserAgent).SetBaseURL(config.SiteURL) // related "restyroot.go:52: restyapi.CallCreateFolder sends a request without a context through it" related "restyroot.go:60: restyapi.CallListFolders sends a request without a context through it" // want `this resty\.Client has no timeout \(SetTimeout\), so a stalled server hangs restyapi\.CallCreateFolder \(and 1 other call\)`
		c.httpClient.SetRetryCount(config.MaxRetries).
			SetRetryWaitTime(time.Second)
	}
}

func (f *Folders) Create(projectID, name string) (restyapi.Folder, error) {
	res, err := restyapi.CallCreateFolder(f.client.httpClient, restyapi.CreateFolderRequest{ProjectID: projectID, Name: name, Path: "/"})
	if err != nil {
		return restyapi.Folder{}, err
	}
	return res.Folder, nil
}

func (f *Folders) List(projectID string) ([]restyapi.Folder, error) {
	return restyapi.CallListFolders(f.client.httpClient, projectID)
}
