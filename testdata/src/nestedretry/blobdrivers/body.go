package blobdrivers

import (
	"bytes"
	"io"
)

// bytesReader gives a request body for data, or none.
func bytesReader(data []byte) io.Reader {
	if data == nil {
		return nil
	}
	return bytes.NewReader(data)
}
