package sandbox

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Discord publishing (bot token): POST /api/v10/channels/{id}/messages as JSON {content, nonce,
// enforce_nonce, message_reference} or multipart (payload_json + files[n]); GET one message, GET
// the channel's recent messages (newest first, ?limit), DELETE a message (204). Validates what
// Discord validates: content ≤ 2,000 characters, not empty without files, ≤ 10 attachments of ≤ 10
// MiB, text channels only, an existing referenced message; enforce_nonce answers the earlier
// message of the same nonce instead of creating a second one.
func discordPublish(d *dialect) {
	d.patterns["POST /api/v10/channels/{id}/messages"] = discordBot(discordCreateMessage)
	d.patterns["GET /api/v10/channels/{id}/messages/{mid}"] = discordBot(discordGetMessage)
	d.patterns["GET /api/v10/channels/{id}/messages"] = discordBot(discordListMessages)
	d.patterns["DELETE /api/v10/channels/{id}/messages/{mid}"] = discordBot(discordDeleteMessage)
}

// discordBot checks the bot token and finds the channel of the path before calling h.
func discordBot(h func(q *req, u *User, ch Channel, rest []string)) func(q *req) {
	return func(q *req) {
		if q.r.Header.Get("Authorization") != "Bot "+BotToken {
			q.fail(apiError{Status: http.StatusUnauthorized, Code: "0", Message: "401: Unauthorized"})
			return
		}
		parts := strings.Split(strings.TrimPrefix(q.path, "/api/v10/channels/"), "/")
		for _, u := range q.net.users {
			for _, c := range u.Channels {
				if c.ID == parts[0] {
					h(q, u, c, parts[1:])
					return
				}
			}
		}
		q.fail(apiError{Status: http.StatusNotFound, Code: "10003", Message: "Unknown Channel"})
	}
}

var discordUnknownMessage = apiError{Status: http.StatusNotFound, Code: "10008", Message: "Unknown Message"}

func discordCreateMessage(q *req, u *User, ch Channel, _ []string) {
	var in struct {
		Content          string `json:"content"`
		Nonce            any    `json:"nonce"`
		EnforceNonce     bool   `json:"enforce_nonce"`
		MessageReference *struct {
			MessageID string `json:"message_id"`
		} `json:"message_reference"`
		Attachments []struct {
			ID       any    `json:"id"`
			Filename string `json:"filename"`
		} `json:"attachments"`
	}
	fields, files, multi := readMultipart(q.r)
	ok := true
	if multi {
		ok = unmarshalString(fields["payload_json"], &in)
	} else {
		ok = decodeJSON(q.r, &in)
	}
	if !ok {
		q.fail(apiError{Status: http.StatusBadRequest, Code: "50109", Message: "The request body contains invalid JSON."})
		return
	}
	if ch.Username == "2" || ch.Username == "15" || ch.Username == "4" {
		q.fail(apiError{Status: http.StatusBadRequest, Code: "50008", Message: "Cannot send messages in a non-text channel"})
		return
	}
	if strings.TrimSpace(in.Content) == "" && len(files) == 0 {
		q.fail(apiError{Status: http.StatusBadRequest, Code: "50006", Message: "Cannot send an empty message"})
		return
	}
	if utf8.RuneCountInString(in.Content) > 2000 {
		q.fail(apiError{Status: http.StatusBadRequest, Code: "50035", Message: "Invalid Form Body"})
		return
	}
	if len(files) > 10 {
		q.fail(apiError{Status: http.StatusBadRequest, Code: "50035", Message: "Invalid Form Body"})
		return
	}
	var names []string
	for i, f := range files {
		if f.Field != fmt.Sprintf("files[%d]", i) || len(f.Data) == 0 {
			q.fail(apiError{Status: http.StatusBadRequest, Code: "50035", Message: "Invalid Form Body"})
			return
		}
		if len(f.Data) > 10<<20 {
			q.fail(apiError{Status: http.StatusRequestEntityTooLarge, Code: "40005", Message: "Request entity too large"})
			return
		}
		names = append(names, f.Name)
	}
	nonce := ""
	if in.Nonce != nil {
		nonce = fmt.Sprint(in.Nonce)
		if len(nonce) > 25 {
			q.fail(apiError{Status: http.StatusBadRequest, Code: "50035", Message: "Invalid Form Body"})
			return
		}
	}
	if in.EnforceNonce && nonce != "" {
		for _, kind := range []string{KindPost, KindComment} {
			for _, h := range q.net.heldIn(kind, ch.ID) {
				if h.Data["nonce"] == nonce && q.net.sb.Now().Sub(h.At) < 10*60e9 {
					q.json(http.StatusOK, discordMessage(u, h))
					return
				}
			}
		}
	}
	kind, parent := KindPost, ""
	if in.MessageReference != nil {
		if q.net.live(in.MessageReference.MessageID, KindPost, KindComment) == nil {
			q.fail(apiError{Status: http.StatusBadRequest, Code: "50035", Message: "Invalid Form Body"})
			return
		}
		kind, parent = KindComment, in.MessageReference.MessageID
	}
	id := snowflake(q)
	h := q.net.keep(Held{Kind: kind, ID: id, User: u.Login, Channel: ch.ID, Text: in.Content, Media: names, Parent: parent,
		URL: "https://discord.com/channels/" + discordGuild(u) + "/" + ch.ID + "/" + id, Data: map[string]any{"nonce": nonce}})
	q.json(http.StatusOK, discordMessage(u, h))
}

func discordGetMessage(q *req, u *User, ch Channel, rest []string) {
	h := q.net.live(rest[1], KindPost, KindComment)
	if h == nil || h.Channel != ch.ID {
		q.fail(discordUnknownMessage)
		return
	}
	q.json(http.StatusOK, discordMessage(u, h))
}

func discordListMessages(q *req, u *User, ch Channel, _ []string) {
	limit, err := strconv.Atoi(q.r.URL.Query().Get("limit"))
	if err != nil || limit <= 0 {
		limit = 50
	}
	if limit > 100 {
		q.fail(apiError{Status: http.StatusBadRequest, Code: "50035", Message: "Invalid Form Body"})
		return
	}
	var all []*Held
	all = append(all, q.net.heldIn(KindPost, ch.ID)...)
	all = append(all, q.net.heldIn(KindComment, ch.ID)...)
	out := []map[string]any{}
	for i := len(all) - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, discordMessage(u, all[i]))
	}
	q.json(http.StatusOK, out)
}

func discordDeleteMessage(q *req, u *User, ch Channel, rest []string) {
	h := q.net.live(rest[1], KindPost, KindComment)
	if h == nil || h.Channel != ch.ID {
		q.fail(discordUnknownMessage)
		return
	}
	q.net.remove(h)
	q.w.WriteHeader(http.StatusNoContent)
}

// snowflake is a Discord-like id growing with time.
func snowflake(q *req) string {
	ms := q.net.sb.Now().UnixMilli() - 1420070400000
	return strconv.FormatInt(ms<<22|int64(len(q.net.held)%4096), 10)
}

func discordMessage(u *User, h *Held) map[string]any {
	atts := []map[string]any{}
	for i, name := range h.Media {
		atts = append(atts, map[string]any{"id": fmt.Sprint(i + 1), "filename": name,
			"url": "https://cdn.discordapp.com/attachments/" + h.Channel + "/" + h.ID + "/" + name})
	}
	m := map[string]any{"id": h.ID, "type": 0, "channel_id": h.Channel, "content": h.Text, "timestamp": h.At.Format("2006-01-02T15:04:05.000000+00:00"),
		"author": map[string]any{"id": "0" + discordGuild(u)[1:], "username": "Crier", "bot": true}, "attachments": atts, "embeds": []any{}}
	if n, _ := h.Data["nonce"].(string); n != "" {
		m["nonce"] = n
	}
	if h.Parent != "" {
		m["type"] = 19
		m["message_reference"] = map[string]any{"message_id": h.Parent, "channel_id": h.Channel, "guild_id": discordGuild(u)}
	}
	return m
}
