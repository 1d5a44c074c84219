// Package chunks uploads a block in chunks: the first chunk makes the block, the others are
// put after it, and a failure of either ends the upload (the caller retries the block).
package chunks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log"
	"net/http"
	"time"
)

var errChecksum = errors.New("chunks: checksum mismatch")

type putRet struct {
	Ctx    string `json:"ctx"`
	CRC32  uint32 `json:"crc32"`
	Offset int64  `json:"offset"`
}

type Uploader struct {
	host   string
	token  string
	client *http.Client
	logger *log.Logger
}

func New(host, token string) *Uploader {
	return &Uploader{host: host, token: token, client: &http.Client{Timeout: 30 * time.Second}, logger: log.Default()}
}

func (u *Uploader) post(ctx context.Context, url string, body []byte, ret *putRet) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "UpToken "+u.token)
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := u.client.Do(req)
	if err != nil {
		return fmt.Errorf("chunks: post %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, resp.Body)
		return fmt.Errorf("chunks: post %s: status %d", url, resp.StatusCode)
	}
	return json.NewDecoder(resp.Body).Decode(ret)
}

func (u *Uploader) makeBlock(ctx context.Context, size int64, chunk []byte, ret *putRet) error {
	return u.post(ctx, fmt.Sprintf("%s/mkblk/%d", u.host, size), chunk, ret)
}

func (u *Uploader) putChunk(ctx context.Context, prev string, offset int64, chunk []byte, ret *putRet) error {
	return u.post(ctx, fmt.Sprintf("%s/bput/%s/%d", u.host, prev, offset), chunk, ret)
}

// UploadBlock sends one block chunk by chunk. The loop walks the chunks: an error of the
// first chunk's request or of a later one's returns at once, through the one test below the
// two branches.
func (u *Uploader) UploadBlock(ctx context.Context, block io.ReaderAt, size, chunkSize int64) (string, error) {
	var (
		ret putRet
		err error
		buf bytes.Buffer
	)
	for offset := int64(0); offset < size; offset += chunkSize {
		n := min(chunkSize, size-offset)
		buf.Reset()
		h := crc32.NewIEEE()
		if _, err = io.Copy(h, io.TeeReader(io.NewSectionReader(block, offset, n), &buf)); err != nil {
			return "", err
		}
		sum := h.Sum32()
		if offset == 0 {
			if err = u.makeBlock(ctx, size, buf.Bytes(), &ret); err == nil {
				if ret.CRC32 != sum || ret.Offset != offset+n {
					return "", errChecksum
				}
			}
		} else {
			if err = u.putChunk(ctx, ret.Ctx, offset, buf.Bytes(), &ret); err == nil {
				if ret.CRC32 != sum || ret.Offset != offset+n {
					return "", errChecksum
				}
			}
		}
		if err != nil {
			u.logger.Printf("chunks: block of %d bytes failed at offset %d: %v", size, offset, err)
			return "", err
		}
	}
	return ret.Ctx, nil
}

// SendFirst tries the first chunk three times, at once: a retry without a wait.
func (u *Uploader) SendFirst(ctx context.Context, size int64, chunk []byte, resend bool) (string, error) {
	var (
		ret putRet
		err error
	)
	for attempt := 0; attempt < 3; attempt++ { // related "chunks.go:108: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		if attempt == 0 || !resend {
			err = u.makeBlock(ctx, size, chunk, &ret)
		} else {
			err = u.putChunk(ctx, ret.Ctx, 0, chunk, &ret)
		}
		if err == nil {
			return ret.Ctx, nil
		}
		u.logger.Printf("chunks: attempt %d: %v", attempt+1, err)
	}
	return "", err
}
