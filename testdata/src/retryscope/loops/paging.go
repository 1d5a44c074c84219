package loops

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// Paging: each round asks for the page that the previous round's answer points to (an offset
// formatted into the path), and an error ends the walk. The verdict bool says there is more.
type pageInfo struct {
	Offset, Limit uint
	More          bool
}

type pager struct{ base string }

func (p *pager) get(ctx context.Context, path string) (*http.Response, error) { return nil, nil }

func (p *pager) pages(ctx context.Context, handle func(*http.Response) (pageInfo, error)) error {
	var more bool
	var offset uint
	for more, offset = true, 0; more; {
		resp, err := p.get(ctx, fmt.Sprintf("%s?offset=%d", p.base, offset))
		if err != nil {
			return err
		}
		info, err := handle(resp)
		if err != nil {
			return err
		}
		offset = info.Offset + info.Limit
		more = info.More
	}
	return nil
}

// The same walk with a page token from the decoded body.
func (p *pager) tokens(ctx context.Context, handle func(*http.Response) (string, bool, error)) error {
	token := ""
	for {
		resp, err := p.get(ctx, p.base+"?page_token="+url.QueryEscape(token))
		if err != nil {
			return err
		}
		next, more, err := handle(resp)
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		token = next
	}
}
