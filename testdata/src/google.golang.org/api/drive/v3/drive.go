// Package drive is a stub of google.golang.org/api/drive/v3, a generated client: a call is
// built with its options and sent by Do, through gensupport.
package drive

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"

	"google.golang.org/api/internal/gensupport"
)

type Service struct {
	client   *http.Client
	BasePath string
	Files    *FilesService
}

func NewService(ctx context.Context, client *http.Client) (*Service, error) {
	s := &Service{client: client, BasePath: "https://www.googleapis.com/drive/v3/"}
	s.Files = &FilesService{s: s}
	return s, nil
}

type FilesService struct{ s *Service }

type File struct {
	Id       string   `json:"id,omitempty"`
	Name     string   `json:"name,omitempty"`
	MimeType string   `json:"mimeType,omitempty"`
	Parents  []string `json:"parents,omitempty"`
}

type FilesCreateCall struct {
	s          *Service
	file       *File
	ctx_       context.Context
	mediaInfo_ *gensupport.MediaInfo
}

func (r *FilesService) Create(file *File) *FilesCreateCall {
	return &FilesCreateCall{s: r.s, file: file}
}

func (c *FilesCreateCall) Context(ctx context.Context) *FilesCreateCall {
	c.ctx_ = ctx
	return c
}

func (c *FilesCreateCall) Fields(s ...string) *FilesCreateCall { return c }

func (c *FilesCreateCall) Media(r io.Reader) *FilesCreateCall {
	c.mediaInfo_ = gensupport.NewInfoFromMedia(r, 16<<20)
	return c
}

func (c *FilesCreateCall) doRequest() (*http.Response, error) {
	body, err := json.Marshal(c.file)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest("POST", c.s.BasePath+"files", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return gensupport.SendRequest(c.ctx_, c.s.client, req)
}

// Do sends the call; with media larger than a chunk it then uploads it resumably.
func (c *FilesCreateCall) Do() (*File, error) {
	res, err := c.doRequest()
	if err != nil {
		return nil, err
	}
	if rx := c.mediaInfo_.ResumableUpload(res.Header.Get("Location")); rx != nil {
		rx.Client = c.s.client
		ctx := c.ctx_
		if ctx == nil {
			ctx = context.TODO()
		}
		res, err = rx.Upload(ctx)
		if err != nil {
			return nil, err
		}
	}
	defer res.Body.Close()
	ret := &File{}
	if err := json.NewDecoder(res.Body).Decode(ret); err != nil {
		return nil, err
	}
	return ret, nil
}
