// Package uploadapi is a social network's API client. Its upload methods take no context and
// post through the client's Client field, http.DefaultClient unless the user sets another:
// the type's design, one finding for its methods rather than one per upload.
package uploadapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
)

type API struct {
	Token   string
	Version string
	Client  *http.Client
}

func New(token string) *API {
	return &API{Token: token, Version: "5.199", Client: http.DefaultClient}
}

type Photo struct {
	Server int    `json:"server"`
	Photo  string `json:"photo"`
	Hash   string `json:"hash"`
}

func (a *API) UploadFile(uploadURL, field, path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	body := &bytes.Buffer{}
	w := multipart.NewWriter(body)
	part, err := w.CreateFormFile(field, filepath.Base(path))
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(part, f); err != nil {
		return nil, err
	}
	w.Close()
	resp, err := a.Client.Post(uploadURL, w.FormDataContentType(), body) // related "uploadapi.go:77: API.uploadStream sends one too" "uploadapi.go:95: API.UploadPhoto sends one too" // want `API\.UploadFile and 2 more calls in this package send requests made without a context: a stalled server hangs them`
	if err != nil {
		return nil, fmt.Errorf("upload: %w", err)
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

func (a *API) uploadStream(uploadURL, field, name string, r io.Reader) ([]byte, error) {
	pr, pw := io.Pipe()
	w := multipart.NewWriter(pw)
	go func() {
		part, err := w.CreateFormFile(field, name)
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		if _, err := io.Copy(part, r); err != nil {
			pw.CloseWithError(err)
			return
		}
		pw.CloseWithError(w.Close())
	}()
	req, err := http.NewRequest(http.MethodPost, uploadURL, pr)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	resp, err := a.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("upload: %w", err)
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

func (a *API) UploadDocument(uploadURL, name string, r io.Reader) ([]byte, error) {
	return a.uploadStream(uploadURL, "file", name, r)
}

func (a *API) UploadPhoto(uploadURL string, data []byte) (*Photo, error) {
	body := &bytes.Buffer{}
	w := multipart.NewWriter(body)
	part, _ := w.CreateFormFile("photo", "photo.jpg")
	part.Write(data)
	w.Close()
	resp, err := a.Client.Post(uploadURL, w.FormDataContentType(), body)
	if err != nil {
		return nil, fmt.Errorf("upload photo: %w", err)
	}
	defer resp.Body.Close()
	var p Photo
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
		return nil, err
	}
	return &p, nil
}

// Mirror copies files to a mirror through http.DefaultClient named in each method, not a
// default the user may replace: each call is its own line to change (reported one by one).
type Mirror struct{ Base string }

func (m *Mirror) Put(name string, data []byte) error {
	resp, err := http.DefaultClient.Post(m.Base+"/"+name, "application/octet-stream", bytes.NewReader(data)) // want `http\.DefaultClient has no Timeout and the request has no context, so a stalled server hangs this call; set Timeout`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (m *Mirror) Stat(name string) (int64, error) {
	resp, err := http.DefaultClient.Head(m.Base + "/" + name) // want `http\.DefaultClient has no Timeout and the request has no context, so a stalled server hangs this call; set Timeout`
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.ContentLength, nil
}
