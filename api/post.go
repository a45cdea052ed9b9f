package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/crier/crier/app"
)

// The nine /post operations: thin glue over app.Service (CreatePost, GetPost, ListPosts …).

// PostCreate answers POST /post.
func (s *Server) PostCreate(ctx context.Context, req PostCreateRequestObject) (PostCreateResponseObject, error) {
	b := req.Body
	data, err := viaJSON[app.PostData](b.Data, "post data")
	if err != nil {
		return nil, err
	}
	st := app.PostStatus(b.Status)
	p := app.PostParams{TeamID: b.TeamId, Title: &b.Title, ReferenceKey: b.ReferenceKey, PostDate: &b.PostDate, Status: &st,
		SocialAccountTypes: networks(b.SocialAccountTypes), Data: &data}
	if b.FirstComment != nil {
		if p.FirstComment, err = viaJSON[map[app.Network]string](*b.FirstComment, "first comment"); err != nil {
			return nil, err
		}
		p.FirstCommentSet = true
	}
	post, err := s.pub.CreatePost(ctx, p)
	if err != nil {
		return nil, err
	}
	out, err := toPost(*post)
	return PostCreate200JSONResponse(out), err
}

// postEditedJSON answers PATCH post as GET post does (the record's data from its stored form, the
// answer written by hand), which TestPostWriteAnswersAsGet holds byte for byte.
type postEditedJSON struct{ postGetJSON }

func (r postEditedJSON) VisitPostUpdateResponse(w http.ResponseWriter) error { return r.write(w) }

// PostGet answers GET /post/{id}: from the cache when it holds the post at its current version
// (one narrow statement); else read, with the version hashed from the rows read (no statement
// more: a miss costs what a read cost before the cache), and kept at it.
func (s *Server) PostGet(ctx context.Context, req PostGetRequestObject) (PostGetResponseObject, error) {
	id := req.Id
	if b, err := s.posts.current(id, func() (int64, bool, error) { return s.pub.PostVersion(ctx, id) }); err != nil {
		return nil, err
	} else if b != nil {
		return postGetJSON{raw: b}, nil
	}
	at := s.svc.Core().Now()
	post, v, ok, err := s.pub.GetPostStoredVersioned(ctx, id)
	if err != nil {
		return nil, err
	}
	out, data, err := toPostStored(*post, nil)
	r := postGetJSON{post: out, data: data}
	if ok {
		r.keep = func(j []byte) { s.posts.put(id, v, at, j) }
	}
	return r, err
}

// PostGetByReferenceKey answers GET /post/reference-key/{referenceKey}.
func (s *Server) PostGetByReferenceKey(ctx context.Context, req PostGetByReferenceKeyRequestObject) (PostGetByReferenceKeyResponseObject, error) {
	post, err := s.pub.GetPostByReferenceKey(ctx, req.ReferenceKey)
	if err != nil {
		return nil, err
	}
	out, err := toPost(*post)
	return postGetJSON{post: out}, err
}

// PostGetList answers GET /post: the page's ids with their versions first (one statement), the
// posts the cache holds at those versions from there, the others read (one round trip) and kept.
func (s *Server) PostGetList(ctx context.Context, req PostGetListRequestObject) (PostGetListResponseObject, error) {
	q := req.Params
	f := app.PostFilter{TeamID: q.TeamId, Q: q.Q, PostDateFrom: q.PostDateFrom, PostDateTo: q.PostDateTo}
	if q.Status != nil {
		st := app.PostStatus(*q.Status)
		f.Status = &st
	}
	if q.OrderBy != nil {
		f.OrderBy = string(*q.OrderBy)
	}
	if q.Order != nil {
		f.Order = string(*q.Order)
	}
	if q.Platforms != nil {
		f.Platforms = networks(*q.Platforms)
	}
	page := app.PageOf(intOf(q.Offset), intOf(q.Limit), app.DefaultPostListLimit)
	key := listKey(ctx, f, page)
	if !s.lists.held(key, s.posts) {
		return s.postListWhole(ctx, key, f, page)
	}
	versions, total, err := s.pub.ListPostVersions(ctx, f, page)
	if err != nil {
		return nil, err
	}
	if len(versions) == 0 { // an empty page, or past its end: as it always was (the team's 404, the total)
		return s.postList(ctx, f, page)
	}
	ids := make([]string, len(versions))
	for i, v := range versions {
		ids[i] = v.ID
	}
	s.lists.remember(key, ids)
	raw := make([][]byte, len(versions))
	var missed []string
	for i, v := range versions {
		if b := s.posts.get(v.ID, v.Version); b != nil {
			raw[i] = b[:len(b)-1] // without GET's newline
		} else {
			missed = append(missed, v.ID)
		}
	}
	r := postListJSON{items: make([]Post, len(versions)), data: make([][]byte, len(versions)), raw: raw, total: float32(total)}
	if len(missed) == 0 {
		return r, nil
	}
	at := s.svc.Core().Now()
	posts, err := s.pub.PostsStored(ctx, missed) // read after the versions: as new or newer
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*app.Post, len(posts))
	for i := range posts {
		byID[posts[i].ID] = &posts[i]
	}
	var memo recordMemo
	keep := make([]int64, len(versions))
	for i, v := range versions {
		if raw[i] != nil {
			continue
		}
		p := byID[v.ID]
		if p == nil { // gone since the versions' read: left out, as a read of the page would
			if r.gone == nil {
				r.gone = make([]bool, len(versions))
			}
			r.gone[i] = true
			continue
		}
		if r.items[i], r.data[i], err = toPostStored(*p, &memo); err != nil {
			return nil, err
		}
		keep[i] = v.Version
	}
	r.keep = func(i int, j []byte) { s.posts.put(versions[i].ID, keep[i], at, j) }
	return r, nil
}

// postListWhole is GET post list read whole, its records kept at the versions hashed from the
// rows read (a page the cache holds few of: listPages).
func (s *Server) postListWhole(ctx context.Context, key string, f app.PostFilter, page app.Page) (PostGetListResponseObject, error) {
	at := s.svc.Core().Now()
	posts, versions, total, err := s.pub.ListPostsStoredVersioned(ctx, f, page)
	if err != nil {
		return nil, err
	}
	version := make(map[string]int64, len(versions))
	for _, v := range versions {
		version[v.ID] = v.Version
	}
	r := postListJSON{items: make([]Post, len(posts)), data: make([][]byte, len(posts)), total: float32(total)}
	ids := make([]string, len(posts))
	var memo recordMemo
	for i, p := range posts {
		ids[i] = p.ID
		if r.items[i], r.data[i], err = toPostStored(p, &memo); err != nil {
			return nil, err
		}
	}
	s.lists.remember(key, ids)
	r.keep = func(i int, j []byte) {
		if v, ok := version[ids[i]]; ok {
			s.posts.put(ids[i], v, at, j)
		}
	}
	return r, nil
}

// postList is GET post list read whole, as before the cache (a page without posts).
func (s *Server) postList(ctx context.Context, f app.PostFilter, page app.Page) (PostGetListResponseObject, error) {
	posts, total, err := s.pub.ListPostsStored(ctx, f, page)
	if err != nil {
		return nil, err
	}
	items, data := make([]Post, 0, len(posts)), make([][]byte, 0, len(posts))
	var memo recordMemo
	for _, p := range posts {
		o, d, err := toPostStored(p, &memo)
		if err != nil {
			return nil, err
		}
		items, data = append(items, o), append(data, d)
	}
	return postListJSON{items: items, data: data, total: float32(total)}, nil
}

// toPostStored is toPost for a post read with its data as stored (GetPostStored, ListPostsStored):
// the record without data, and data's JSON (dataJSON). memo, when set, is the answer's (a list's posts share it).
func toPostStored(p app.Post, memo *recordMemo) (Post, []byte, error) {
	out, err := toPostFields(p, memo)
	if err != nil {
		return out, nil, err
	}
	data, err := dataJSON(p.StoredData)
	return out, data, err
}

// PostUpdate answers PATCH /post/{id}.
func (s *Server) PostUpdate(ctx context.Context, req PostUpdateRequestObject) (PostUpdateResponseObject, error) {
	b := req.Body
	p := app.PostParams{Title: b.Title, PostDate: b.PostDate}
	// referenceKey and firstComment: absent keeps them, null removes them.
	if b.ReferenceKey.IsSpecified() {
		if b.ReferenceKey.IsNull() {
			p.ClearReferenceKey = true
		} else {
			key := b.ReferenceKey.MustGet()
			p.ReferenceKey = &key
		}
	}
	if b.Status != nil {
		st := app.PostStatus(*b.Status)
		p.Status = &st
	}
	if b.SocialAccountTypes != nil {
		p.SocialAccountTypes = networks(*b.SocialAccountTypes)
	}
	if b.Data != nil {
		data, err := viaJSON[app.PostData](*b.Data, "post data")
		if err != nil {
			return nil, err
		}
		p.Data = &data
	}
	if b.FirstComment.IsSpecified() {
		p.FirstCommentSet = true
		if !b.FirstComment.IsNull() {
			fc, err := viaJSON[map[app.Network]string](b.FirstComment.MustGet(), "first comment")
			if err != nil {
				return nil, err
			}
			p.FirstComment = fc
		}
	}
	if b.Data == nil {
		// data as it was: its JSON is likely known already (api/post_data.go's table, by stored
		// form), so the record's data is not decoded; new data would only fill the table with a
		// form no GET has asked for yet
		post, err := s.pub.UpdatePostStored(ctx, req.Id, p)
		s.posts.forget(req.Id) // after the write: a read before it could fill the entry anew
		if err != nil {
			return nil, err
		}
		out, stored, err := toPostStored(*post, nil)
		return postEditedJSON{postGetJSON{post: out, data: stored}}, err
	}
	post, err := s.pub.UpdatePost(ctx, req.Id, p)
	s.posts.forget(req.Id) // after the write: a read before it could fill the entry anew
	if err != nil {
		return nil, err
	}
	out, err := toPost(*post)
	return PostUpdate200JSONResponse(out), err
}

// PostDelete answers DELETE /post/{id} with the deleted post.
func (s *Server) PostDelete(ctx context.Context, req PostDeleteRequestObject) (PostDeleteResponseObject, error) {
	post, err := s.pub.DeletePost(ctx, req.Id)
	s.posts.forget(req.Id) // after the write: a read before it could fill the entry anew
	if err != nil {
		return nil, err
	}
	out, err := toPost(*post)
	return PostDelete200JSONResponse(out), err
}

// PostRetry answers POST /post/{id}/retry.
func (s *Server) PostRetry(ctx context.Context, req PostRetryRequestObject) (PostRetryResponseObject, error) {
	post, err := s.pub.RetryPost(ctx, req.Id)
	s.posts.forget(req.Id) // after the write: a read before it could fill the entry anew
	if err != nil {
		return nil, err
	}
	out, err := toPost(*post)
	return PostRetry200JSONResponse(out), err
}

// PostGetReconnectSocialAccountCandidates answers GET /post/reconnect-social-account/candidates.
func (s *Server) PostGetReconnectSocialAccountCandidates(ctx context.Context, req PostGetReconnectSocialAccountCandidatesRequestObject) (PostGetReconnectSocialAccountCandidatesResponseObject, error) {
	q := req.Params
	cs, total, err := s.pub.ReconnectCandidates(ctx, q.TeamId, app.Network(q.Type), app.PageOf(intOf(q.Offset), intOf(q.Limit), 10))
	if err != nil {
		return nil, err
	}
	items := make([]ReconnectCandidate, 0, len(cs))
	for _, c := range cs {
		created, updated := c.CreatedAt, c.UpdatedAt
		items = append(items, ReconnectCandidate{Id: c.ID, Title: c.Title, PostDate: c.PostDate, Status: PostStatus(c.Status), CreatedAt: &created, UpdatedAt: &updated})
	}
	return PostGetReconnectSocialAccountCandidates200JSONResponse{Items: items, Total: float32(total)}, nil
}

// PostReconnectSocialAccount answers POST /post/reconnect-social-account.
func (s *Server) PostReconnectSocialAccount(ctx context.Context, req PostReconnectSocialAccountRequestObject) (PostReconnectSocialAccountResponseObject, error) {
	var ids []string
	if req.Body.PostIds != nil {
		ids = *req.Body.PostIds
		if ids == nil {
			ids = []string{}
		}
	}
	sum, err := s.pub.ReconnectSocialAccount(ctx, req.Body.TeamId, app.Network(req.Body.Type), ids)
	if err != nil {
		return nil, err
	}
	out := PostReconnectSocialAccount200JSONResponse{Total: float32(sum.Total), Succeeded: float32(sum.Succeeded), Failed: float32(sum.Failed),
		Results: make([]ReconnectResult, 0, len(sum.Results))}
	for _, r := range sum.Results {
		before, after, msg := PostStatus(r.StatusBefore), PostStatus(r.StatusAfter), r.Message
		res := ReconnectResult{PostId: r.PostID, Title: r.Title, Success: r.Success, Message: &msg}
		if r.StatusBefore != "" {
			res.StatusBefore, res.StatusAfter = &before, &after
		}
		out.Results = append(out.Results, res)
	}
	return out, nil
}

func networks[T ~string](in []T) []app.Network {
	out := make([]app.Network, len(in))
	for i, n := range in {
		out[i] = app.Network(n)
	}
	return out
}

// viaJSON converts between a contract type and an app type that share their JSON form (the same
// field names, networks as keys). The contract's types spell every network out as a field, with
// nested types per network, where the app keys maps by app.Network; a field-by-field conversion
// would repeat the network list for each type and silently drop a network added to only one side.
func viaJSON[T any](v any, what string) (T, error) {
	var out T
	b, err := json.Marshal(v)
	if err != nil {
		return out, fmt.Errorf("api: %s: %w", what, err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return out, fmt.Errorf("api: %s: %w", what, err)
	}
	return out, nil
}
