package store

var PgUUID = pgUUID
