// Package restyapi holds the calls of a folders API; each takes the resty client its SDK
// made. Whether they can hang is decided where that client is made (package restyroot).
package restyapi

import (
	"fmt"

	"github.com/go-resty/resty/v2"
)

const createFolderOperation = "CallCreateFolder"

type CreateFolderRequest struct {
	ProjectID string `json:"projectId"`
	Name      string `json:"name"`
	Path      string `json:"path"`
}

type Folder struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type CreateFolderResponse struct {
	Folder Folder `json:"folder"`
}

// RequestError wraps a failure to send.
type RequestError struct {
	Op  string
	Err error
}

func (e *RequestError) Error() string { return e.Op + ": " + e.Err.Error() }

func CallCreateFolder(httpClient *resty.Client, request CreateFolderRequest) (CreateFolderResponse, error) {
	out := CreateFolderResponse{}
	req := httpClient.R().
		SetResult(&out).
		SetBody(request)
	res, err := req.Post("/v1/folders")
	if err != nil {
		return CreateFolderResponse{}, &RequestError{Op: createFolderOperation, Err: err}
	}
	if res.IsError() {
		return CreateFolderResponse{}, fmt.Errorf("%s: status %d", createFolderOperation, res.StatusCode())
	}
	return out, nil
}

func CallListFolders(httpClient *resty.Client, projectID string) ([]Folder, error) {
	var out struct {
		Folders []Folder `json:"folders"`
	}
	res, err := httpClient.R().SetResult(&out).Get("/v1/folders?projectId=" + projectID)
	if err != nil {
		return nil, &RequestError{Op: "CallListFolders", Err: err}
	}
	if res.IsError() {
		return nil, fmt.Errorf("list folders: status %d", res.StatusCode())
	}
	return out.Folders, nil
}
