package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/crier/crier/app"
)

// toPost renders a post: its record (the same the post.published event carries) plus the uploads
// and social accounts links. Fields are copied directly; only the per-network parts go through
// byNetwork (each network a field of the contract's type), so a post costs no JSON round trip of
// the whole record (issue 15: that was most of GET post list's CPU). The answer is byte-identical to
// the round trip's (TestToPostMatchesJSONRoundTrip).
func toPost(p app.Post) (Post, error) {
	out, err := toPostFields(p, nil)
	if err != nil {
		return out, err
	}
	// data: one JSON round trip of the payloads alone, each network's type into the contract's.
	// MarshalJSON directly: json.Marshal would copy and re-check its already compact output.
	if b, err := p.Data.MarshalJSON(); err != nil {
		return out, fmt.Errorf("api: post data: %w", err)
	} else if err := json.Unmarshal(b, &out.Data); err != nil {
		return out, fmt.Errorf("api: post data: %w", err)
	}
	return out, nil
}

// toPostFields is toPost but data.
func toPostFields(p app.Post, memo *recordMemo) (Post, error) {
	created, updated := p.CreatedAt, p.UpdatedAt
	out := Post{Id: p.ID, TeamId: p.TeamID, OrganizationId: p.OrganizationID, Title: p.Title, ReferenceKey: p.ReferenceKey,
		PostDate: p.PostDate, PostedDate: p.PostedDate, Status: PostStatus(p.Status), Error: p.Error,
		RetryCount: float32(p.RetryCount), ReviewNote: p.ReviewNote, CreatedAt: &created, UpdatedAt: &updated, DeletedAt: p.DeletedAt}
	if p.SocialAccountTypes != nil {
		types := make([]NetworkType, len(p.SocialAccountTypes))
		for i, n := range p.SocialAccountTypes {
			types[i] = NetworkType(n)
		}
		out.SocialAccountTypes = &types
	}
	var err error
	if out.Errors, err = byNetwork[PostErrors](p.Errors, true); err != nil {
		return out, err
	}
	// errorsVerbose is omitempty in the record: an empty map is left out, not written as {}.
	if out.ErrorsVerbose, err = byNetwork[PostErrorsVerbose](p.ErrorsVerbose, len(p.ErrorsVerbose) > 0); err != nil {
		return out, err
	}
	if out.ExternalData, err = byNetwork[PostExternalData](p.ExternalData, true); err != nil {
		return out, err
	}
	if out.FirstComment, err = byNetwork[PostFirstComment](p.FirstComment, true); err != nil {
		return out, err
	}
	if p.Uploads != nil {
		ups := make([]PostUploadLink, 0, len(p.Uploads))
		for _, u := range p.Uploads {
			created, updated := u.CreatedAt, u.UpdatedAt
			ups = append(ups, PostUploadLink{PostId: u.PostID, UploadId: u.UploadID, CreatedAt: &created, UpdatedAt: &updated, DeletedAt: u.DeletedAt, Upload: memo.upload(u.Upload)})
		}
		out.Uploads = &ups
	}
	if p.SocialAccounts != nil {
		accs := make([]PostSocialAccountLink, 0, len(p.SocialAccounts))
		for _, a := range p.SocialAccounts {
			created, updated := a.CreatedAt, a.UpdatedAt
			accs = append(accs, PostSocialAccountLink{PostId: a.PostID, SocialAccountId: a.SocialAccountID, CreatedAt: &created, UpdatedAt: &updated,
				SocialAccount: memo.account(a.SocialAccount)})
		}
		out.SocialAccounts = &accs
	}
	return out, nil
}

// byNetwork converts a map keyed by network into the contract's struct with a field per network
// (T), as decoding the map's JSON would: a nil map is absent (nil), an empty one an empty object
// when keep, nil entries and networks the contract does not list are left out.
func byNetwork[T any, V any](m map[app.Network]V, keep bool) (*T, error) {
	if m == nil || !keep {
		return nil, nil
	}
	out := new(T)
	for n, v := range m {
		if err := setNetwork(out, n, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// setNetwork sets the field of network n in *out (a struct with a pointer field per network) to v:
// directly when v is that field's value type (a string), through v's JSON otherwise (a network's
// own payload or error detail into the contract's type for it).
func setNetwork[T any](out *T, n app.Network, v any) error {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface || rv.Kind() == reflect.Map) && rv.IsNil() {
		return nil // JSON null: the field stays absent
	}
	i, ok := networkFields(reflect.TypeFor[T]())[n]
	if !ok {
		return nil
	}
	f := reflect.ValueOf(out).Elem().Field(i)
	elem := f.Type().Elem()
	if rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	ptr := reflect.New(elem)
	if rv.Type().ConvertibleTo(elem) && rv.Kind() != reflect.Struct {
		ptr.Elem().Set(rv.Convert(elem))
	} else {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("api: %s of %s: %w", elem, n, err)
		}
		if err := json.Unmarshal(b, ptr.Interface()); err != nil {
			return fmt.Errorf("api: %s of %s: %w", elem, n, err)
		}
	}
	f.Set(ptr)
	return nil
}

var fieldIndex sync.Map // reflect.Type → map[app.Network]int

// networkFields maps each network to the index of its field in struct type t (by JSON name).
func networkFields(t reflect.Type) map[app.Network]int {
	if m, ok := fieldIndex.Load(t); ok {
		return m.(map[app.Network]int)
	}
	m := map[app.Network]int{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		m[app.Network(name)] = i
	}
	fieldIndex.Store(t, m)
	return m
}

// recordMemo converts each social account and upload of an answer once (a page's posts show the
// same few, each the same record by id); nil converts every time.
type recordMemo struct {
	accounts map[string]SocialAccount
	uploads  map[string]Upload
}

func (m *recordMemo) account(a app.SocialAccount) SocialAccount {
	if m == nil {
		return toSocialAccount(a)
	}
	if v, ok := m.accounts[a.ID]; ok {
		return v
	}
	if m.accounts == nil {
		m.accounts = map[string]SocialAccount{}
	}
	v := toSocialAccount(a)
	m.accounts[a.ID] = v
	return v
}

func (m *recordMemo) upload(u app.Upload) Upload {
	if m == nil {
		return toUpload(u)
	}
	if v, ok := m.uploads[u.ID]; ok {
		return v
	}
	if m.uploads == nil {
		m.uploads = map[string]Upload{}
	}
	v := toUpload(u)
	m.uploads[u.ID] = v
	return v
}
