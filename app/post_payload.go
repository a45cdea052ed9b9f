package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
)

// Per-network post payloads: each network's payload type is its own (network/<name>/payload.go,
// made by its spec's NewPayload), shared by the validation (its spec's Check), the publishing
// pipeline and the adapter (which reads the payload of its own network from PublishRequest), and the
// composer. JSON names are the wire names of the contract's PostData schema (api/openapi.json).

// Payload is what every network's payload has: the text and the media.
type Payload interface {
	// Body is the main text ("" when none).
	Body() string
	// Uploads are the upload ids in order (mediaItems, carousel items or uploadIds).
	Uploads() []string
}

// What some payloads have besides (the pipeline asks for each where it matters).
type (
	// Defaulter writes the spec's defaults into the payload (booleans and numbers default to false
	// and 0, which the payload types already are).
	Defaulter interface{ SetDefaults() }
	// UploadNamer names uploads beyond Uploads that the rules check: uploadIds given beside
	// mediaItems or carousel items, the uploads of X's thread posts.
	UploadNamer interface{ NamedUploads() []string }
	// MoreMedia names the uploads publishing needs beyond Uploads (PublishRequest.More).
	MoreMedia interface{ MoreUploads() []string }
	// Thumbnailed has a thumbnail (an upload id or a URL; "" when none).
	Thumbnailed interface{ ThumbnailRef() string }
	// AltTexter gives the media (in Uploads' order) the alt texts the payload sets.
	AltTexter interface{ ApplyAltTexts(media []MediaFile) }
	// ChannelPicker chooses the channel a post goes to from its payload (a board, a subreddit, a chat
	// channel); without it the account's selected channel is used.
	ChannelPicker interface {
		PublishChannel(n Network, acct *SocialAccount) (*Channel, error)
	}
	// Story is a payload that may be a story (which cannot be commented on).
	Story interface{ IsStory() bool }
)

// PostData is a post's payload per network (the spec's data object): each network's own payload
// type, decoded and encoded through the registered specs. A network without a payload is not a
// target. The zero value is empty; copies do not share later Sets.
type PostData struct {
	payloads map[Network]Payload
}

// Of answers the payload of one network (nil when the network is not a target).
func (d *PostData) Of(n Network) Payload {
	if d == nil {
		return nil
	}
	return d.payloads[n]
}

// Set gives network n the payload p (nil removes the network).
func (d *PostData) Set(n Network, p Payload) {
	next := make(map[Network]Payload, len(d.payloads)+1)
	for k, v := range d.payloads {
		next[k] = v
	}
	if p == nil {
		delete(next, n)
	} else {
		next[n] = p
	}
	if len(next) == 0 {
		next = nil
	}
	d.payloads = next
}

// Networks lists the targets of the data, in the spec's order.
func (d *PostData) Networks() []Network {
	var out []Network
	for _, n := range Networks {
		if d.Of(n) != nil {
			out = append(out, n)
		}
	}
	return out
}

// Raw answers one network's payload as JSON (for storage per target).
func (d *PostData) Raw(n Network) json.RawMessage {
	p := d.Of(n)
	if p == nil {
		return nil
	}
	b, _ := json.Marshal(p)
	return b
}

// wireOrder is the order data's networks are written in: that of the struct PostData was before the
// networks owned their payloads, so stored and emitted JSON stay byte-identical. Networks added
// since follow in Networks' order.
var wireOrder = func() []Network {
	order := []Network{Twitter, Pinterest, Facebook, Instagram, Threads, TikTok, LinkedIn, YouTube,
		Reddit, Discord, Slack, Mastodon, Bluesky, GoogleBusiness, Snapchat}
	for _, n := range Networks {
		if !slices.Contains(order, n) {
			order = append(order, n)
		}
	}
	return order
}()

// MarshalJSON writes {"NETWORK": payload, …} in wireOrder.
func (d PostData) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for _, n := range wireOrder {
		p := d.payloads[n]
		if p == nil {
			continue
		}
		v, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + string(n) + `":`)
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads each network's payload into its spec's type, as a struct field would be: keys
// match networks exactly or else case-insensitively, unknown keys are ignored, null removes a
// network, a payload already there is decoded into, and a payload that does not decode is the first
// error while the others are still read.
func (d *PostData) UnmarshalJSON(b []byte) error {
	if b, ok := validObject(b); ok {
		// The members of a valid object, split in place: json.Decoder's Token and Decode took
		// most of a post's decoding (a syntax error built for every value it read from the stream).
		var first error
		for i := 1; ; {
			i = skipSpace(b, i)
			if b[i] == ',' {
				i = skipSpace(b, i+1)
			}
			if b[i] == '}' {
				return first
			}
			end := skipJSONValue(b, i)
			var key string
			if bytes.IndexByte(b[i:end], '\\') < 0 {
				key = string(b[i+1 : end-1])
			} else if err := json.Unmarshal(b[i:end], &key); err != nil {
				return err
			}
			i = skipSpace(b, end)     // at the colon
			i = skipSpace(b, i+1)     // at the value
			end = skipJSONValue(b, i) // past it
			if err := d.read(key, b[i:end]); err != nil && first == nil {
				first = err
			}
			i = end
		}
	}
	return d.unmarshalTokens(b)
}

// unmarshalTokens is UnmarshalJSON by json.Decoder's tokens (for what is not a valid object,
// whose errors it words).
func (d *PostData) unmarshalTokens(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	switch {
	case err != nil:
		return err
	case tok == nil:
		return nil // null: nothing to read
	case tok != json.Delim('{'):
		var target map[string]json.RawMessage
		err := json.Unmarshal(b, &target) // the decoding error of a non-object, named as data's
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			te.Type = reflect.TypeFor[PostData]()
		}
		return err
	}
	var first error
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if err := d.read(key.(string), raw); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// validObject answers b without its surrounding space when it is one valid JSON object.
func validObject(b []byte) ([]byte, bool) {
	b = bytes.TrimSpace(b)
	return b, len(b) > 0 && b[0] == '{' && json.Valid(b)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipJSONValue answers where the valid JSON value starting at i ends.
func skipJSONValue(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 { // past a scalar, at its object's or array's end
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r', ':':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// read decodes the value of one key of data.
func (d *PostData) read(key string, raw json.RawMessage) error {
	n, ok := payloadKey(key)
	if !ok {
		return nil
	}
	if string(raw) == "null" {
		d.Set(n, nil)
		return nil
	}
	p := d.Of(n)
	if p == nil {
		p = SpecOf(n).NewPayload()
	}
	err := json.Unmarshal(raw, p)
	d.Set(n, p)
	if err != nil {
		return underNetwork(err, n)
	}
	return nil
}

// underNetwork places a payload's type error under its network's field, as the struct did
// ("PostData.TWITTER", "Payload.TWITTER.text").
func underNetwork(err error, n Network) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	if te.Field == "" {
		te.Struct, te.Field = "PostData", string(n)
	} else {
		te.Field = string(n) + "." + te.Field
	}
	return te
}

// payloadKey is the registered network a key of data names (exactly, else case-insensitively).
func payloadKey(key string) (Network, bool) {
	if s := SpecOf(Network(key)); s != nil && s.NewPayload != nil {
		return s.Network, true
	}
	for _, s := range Specs() {
		if s.NewPayload != nil && strings.EqualFold(string(s.Network), key) {
			return s.Network, true
		}
	}
	return "", false
}

// MediaItem is an upload with its alt text.
type MediaItem struct {
	UploadID string  `json:"uploadId"`
	AltText  *string `json:"altText,omitempty"`
}

// MediaIDs are the upload ids of items, or ids when there are no items.
func MediaIDs(items []MediaItem, ids []string) []string {
	if len(items) == 0 {
		return ids
	}
	out := make([]string, 0, len(items))
	for _, m := range items {
		out = append(out, m.UploadID)
	}
	return out
}

// ApplyItemAltTexts gives media the alt texts of items, in order.
func ApplyItemAltTexts(items []MediaItem, media []MediaFile) {
	for i, m := range items {
		if i < len(media) && m.AltText != nil {
			media[i].AltText = *m.AltText
		}
	}
}

// MusicSoundInfo is a licensed sound (Instagram, TikTok).
type MusicSoundInfo struct {
	MusicSoundID             string   `json:"musicSoundId"`
	MusicSoundVolume         *int     `json:"musicSoundVolume,omitempty"`
	MusicSoundStart          *float64 `json:"musicSoundStart,omitempty"` // TikTok
	MusicSoundEnd            *float64 `json:"musicSoundEnd,omitempty"`   // TikTok
	VideoOriginalSoundVolume *int     `json:"videoOriginalSoundVolume,omitempty"`
}
