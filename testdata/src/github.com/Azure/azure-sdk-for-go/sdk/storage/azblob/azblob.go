// Package azblob is a stub of github.com/Azure/azure-sdk-for-go/sdk/storage/azblob.
package azblob

import (
	"context"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
)

type Client struct{}
type ClientOptions struct {
	azcore.ClientOptions
}
type UploadBufferOptions struct{}
type UploadBufferResponse struct{}
type ListContainersOptions struct{}
type ListContainersResponse struct{}

func NewClientFromConnectionString(connectionString string, options *ClientOptions) (*Client, error) {
	return &Client{}, nil
}

func NewClient(serviceURL string, cred azcore.TokenCredential, options *ClientOptions) (*Client, error) {
	return &Client{}, nil
}

func (c *Client) UploadBuffer(ctx context.Context, containerName, blobName string, buffer []byte, o *UploadBufferOptions) (UploadBufferResponse, error) {
	return UploadBufferResponse{}, nil
}

func (c *Client) NewListContainersPager(o *ListContainersOptions) *runtime.Pager[ListContainersResponse] {
	return &runtime.Pager[ListContainersResponse]{}
}

func (c *Client) URL() string { return "" }
