/*
 * protocol.h - the table clock's wire protocol, version 1 (docs/clock-protocol.md).
 *
 * Pure functions and small state machines with no hardware access: framing and the XOR
 * checksum, field and number parsing, the 7-segment font, host command decisions, and
 * (in presses.h, included at the end) the ring buffer of unacknowledged button presses,
 * button debouncing and lamps. The sketch
 * (guandan_clock.ino) includes this header; so does the native test harness
 * (hardware/firmware/test/protocol_harness.c), which the host's gcc compiles so that
 * tests/hardware/test_firmware*.py can check these rules against hardware/protocol.py.
 *
 * Valid C99 and C++11. Everything is `static inline`: each translation unit gets its own copy
 * and the linker's --gc-sections drops what is unused. On AVR the constant strings live
 * in flash (PROGMEM), not in the 2 KiB of RAM.
 */
#ifndef GUANDAN_CLOCK_PROTOCOL_H
#define GUANDAN_CLOCK_PROTOCOL_H

#include <stdint.h>
#include <string.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __AVR__
#include <avr/pgmspace.h>
#define GC_PROGMEM PROGMEM
#define GC_FLASH(s) PSTR(s)
#define GC_FLASH_BYTE(p) ((char)pgm_read_byte(p))
#else
#define GC_PROGMEM
#define GC_FLASH(s) (s)
#define GC_FLASH_BYTE(p) (*(const char *)(p))
#endif

#define GC_PROTOCOL 1
#define GC_FIRMWARE_VERSION "1.0.0"
#define GC_SEATS "ESWN"

/* A whole sentence, '$' to '\n', is at most 64 bytes; the framer keeps what lies between. */
#define GC_MAX_SENTENCE 64
#define GC_MAX_RAW (GC_MAX_SENTENCE - 2)

#define GC_DIGITS 4          /* digits per seat display */
#define GC_SEAT_COUNT 4      /* E S W N */
#define GC_SEAT_ALL 0x0F     /* the seat mask of '*' */
#define GC_BUTTON_COUNT 5    /* E S W N and R, the referee call button */
#define GC_SEG_NONE 0xFF     /* gc_segments: the character cannot be shown */
#define GC_SEG_DP 0x80       /* decimal point / colon bit */

#define GC_PENDING_MAX 16    /* unacknowledged presses kept */
#define GC_RESEND_MS 200UL   /* a BTN is repeated this often until acknowledged */
#define GC_HEARTBEAT_MS 1000UL
#define GC_DEBOUNCE_MS 20UL
#define GC_BLINK_HALF_MS 250UL /* BLINK: 2 Hz, 250 ms on, 250 ms off */
#define GC_BEEP_MIN_MS 1
#define GC_BEEP_MAX_MS 2000

/* ---- checksum ------------------------------------------------------------------------ */

/* The XOR of every byte of a body (NMEA 0183). */
static inline uint8_t gc_checksum(const char *s, uint8_t len) {
  uint8_t x = 0;
  for (uint8_t i = 0; i < len; i++) x ^= (uint8_t)s[i];
  return x;
}

static inline char gc_hex_digit(uint8_t v) {
  v &= 0x0F;
  return (char)(v < 10 ? '0' + v : 'A' + (v - 10));
}

/* The value of an upper-case hex digit, or -1 (lower case is refused, as by the host). */
static inline int8_t gc_hex_value(char c) {
  if (c >= '0' && c <= '9') return (int8_t)(c - '0');
  if (c >= 'A' && c <= 'F') return (int8_t)(c - 'A' + 10);
  return -1;
}

/* Whether raw, the bytes between '$' and '\n', is BODY*CS with an optional trailing '\r'
 * and a matching checksum; *body_len gets BODY's length. */
static inline bool gc_check_frame(const char *raw, uint8_t len, uint8_t *body_len) {
  if (len > 0 && raw[len - 1] == '\r') len--;
  if (len < 4 || raw[len - 3] != '*') return false;
  int8_t hi = gc_hex_value(raw[len - 2]);
  int8_t lo = gc_hex_value(raw[len - 1]);
  if (hi < 0 || lo < 0) return false;
  uint8_t n = (uint8_t)(len - 3);
  for (uint8_t i = 0; i < n; i++) {
    if ((uint8_t)raw[i] >= 0x80) return false; /* ASCII only */
  }
  if (gc_checksum(raw, n) != (uint8_t)((hi << 4) | lo)) return false;
  *body_len = n;
  return true;
}

/* ---- framer -------------------------------------------------------------------------- */

typedef struct {
  char buf[GC_MAX_RAW + 1];
  uint8_t len;
  bool in_sentence;
  uint32_t dropped; /* sentences dropped: bad checksum or shape, too long, cut by a '$' */
} GcFramer;

static inline void gc_framer_init(GcFramer *f) {
  f->len = 0;
  f->in_sentence = false;
  f->dropped = 0;
}

/* Feeds one received byte. Returns true when it completed a sentence with a good
 * checksum: *body then points at BODY (NUL-terminated, valid until the next call) and
 * *body_len holds its length. Bytes outside a sentence are ignored; a '$' inside one
 * starts over (the cut sentence is counted as dropped); so are sentences that end badly
 * or grow past GC_MAX_SENTENCE bytes. */
static inline bool gc_framer_feed(GcFramer *f, uint8_t b, const char **body, uint8_t *body_len) {
  if (b == '$') {
    if (f->in_sentence) f->dropped++;
    f->len = 0;
    f->in_sentence = true;
    return false;
  }
  if (!f->in_sentence) return false;
  if (b == '\n') {
    f->in_sentence = false;
    uint8_t n;
    if (!gc_check_frame(f->buf, f->len, &n)) {
      f->dropped++;
      return false;
    }
    f->buf[n] = '\0';
    *body = f->buf;
    *body_len = n;
    return true;
  }
  if (f->len >= GC_MAX_RAW) {
    f->in_sentence = false;
    f->dropped++;
    return false;
  }
  f->buf[f->len++] = (char)b;
  return false;
}

/* ---- fields and numbers -------------------------------------------------------------- */

typedef struct {
  const char *p;
  uint8_t len;
} GcField;

/* Splits body at commas into at most max fields; returns the number of fields, or max + 1
 * when there are more (a bad shape for every sentence type). */
static inline uint8_t gc_split(const char *body, uint8_t len, GcField *fields, uint8_t max) {
  uint8_t count = 0;
  uint8_t start = 0;
  for (uint8_t i = 0; i <= len; i++) {
    if (i == len || body[i] == ',') {
      if (count == max) return (uint8_t)(max + 1);
      fields[count].p = body + start;
      fields[count].len = (uint8_t)(i - start);
      count++;
      start = (uint8_t)(i + 1);
    }
  }
  return count;
}

/* Whether a field equals a constant string (in flash on AVR). */
static inline bool gc_field_is(const GcField *f, const char *flash_text) {
  uint8_t i = 0;
  for (; i < f->len; i++) {
    char c = GC_FLASH_BYTE(flash_text + i);
    if (c == '\0' || c != f->p[i]) return false;
  }
  return GC_FLASH_BYTE(flash_text + i) == '\0';
}

/* Decimal digits only (no sign, no space, leading zeros allowed), value <= max. */
static inline bool gc_parse_uint(const char *s, uint8_t len, uint32_t max, uint32_t *out) {
  if (len == 0) return false;
  uint32_t v = 0;
  for (uint8_t i = 0; i < len; i++) {
    char c = s[i];
    if (c < '0' || c > '9') return false;
    uint8_t d = (uint8_t)(c - '0');
    if (d > max || v > (max - d) / 10) return false; /* v * 10 + d would pass max */
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

static inline bool gc_parse_number(const GcField *f, uint16_t *n) {
  uint32_t v;
  if (!gc_parse_uint(f->p, f->len, 65535UL, &v)) return false;
  *n = (uint16_t)v;
  return true;
}

/* ---- seats and the display font ------------------------------------------------------ */

/* The seat mask of a host command's seat field: E 1, S 2, W 4, N 8, '*' all; 0 if bad. */
static inline uint8_t gc_seat_mask(const GcField *f) {
  if (f->len != 1) return 0;
  switch (f->p[0]) {
    case 'E': return 0x01;
    case 'S': return 0x02;
    case 'W': return 0x04;
    case 'N': return 0x08;
    case '*': return GC_SEAT_ALL;
    default: return 0;
  }
}

/* Segments of a character, bit 0 = a ... bit 6 = g (TM1637 order); GC_SEG_NONE if the
 * protocol does not allow it. Letters are case-sensitive, as the protocol lists them.
 * The tables live in flash on AVR (a switch would become a lookup table in RAM). */
static inline uint8_t gc_segments(char c) {
  static const char chars[] GC_PROGMEM = "0123456789 -_AbCdEFHLoPrtU";
  static const uint8_t codes[] GC_PROGMEM = {
      0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F, /* 0-9 */
      0x00, 0x40, 0x08,                                           /* space - _ */
      0x77, 0x7C, 0x39, 0x5E, 0x79, 0x71, 0x76,                   /* A b C d E F H */
      0x38, 0x5C, 0x73, 0x50, 0x78, 0x3E};                        /* L o P r t U */
  for (uint8_t i = 0; i < sizeof codes; i++) {
    if (GC_FLASH_BYTE(chars + i) == c) return (uint8_t)GC_FLASH_BYTE(codes + i);
  }
  return GC_SEG_NONE;
}

/* Renders display text into 4 digit patterns, right-aligned (blank digits in front), so
 * that "0.30" lights the second digit's colon bit: " 0:30". A '.' after a character sets
 * that digit's GC_SEG_DP bit and takes no place. False (out untouched) when the text has
 * a character outside the font, a '.' not right after a character, or more than 4 digits. */
static inline bool gc_render(const char *s, uint8_t len, uint8_t out[GC_DIGITS]) {
  uint8_t cells[GC_DIGITS];
  uint8_t count = 0;
  bool after_char = false;
  for (uint8_t i = 0; i < len; i++) {
    if (s[i] == '.') {
      if (!after_char) return false;
      cells[count - 1] |= GC_SEG_DP;
      after_char = false;
      continue;
    }
    uint8_t seg = gc_segments(s[i]);
    if (seg == GC_SEG_NONE || count == GC_DIGITS) return false;
    cells[count++] = seg;
    after_char = true;
  }
  uint8_t pad = (uint8_t)(GC_DIGITS - count);
  for (uint8_t i = 0; i < GC_DIGITS; i++) out[i] = i < pad ? 0x00 : cells[i - pad];
  return true;
}

/* ---- host commands ------------------------------------------------------------------- */

enum {
  GC_DROP = 0,     /* malformed: count it, do nothing, answer nothing */
  GC_DISPLAY = 1,  /* DSP: show segs on the seats in the mask, answer ACK */
  GC_LAMP = 2,     /* LED: set the lamp mode of the seats in the mask, answer ACK */
  GC_BEEP = 3,     /* BEEP: sound the buzzer for beep_ms, answer ACK */
  GC_HOST_ACK = 4, /* ACK: the host acknowledges our BTN n, answer nothing */
  GC_REFUSE = 5    /* answer NAK,n,reason */
};

enum { GC_REPLY_ACK = 0, GC_NAK_SEAT = 1, GC_NAK_TEXT = 2, GC_NAK_VALUE = 3, GC_NAK_UNKNOWN = 4 };

enum { GC_LAMP_OFF = 0, GC_LAMP_ON = 1, GC_LAMP_BLINK = 2 };

typedef struct {
  uint8_t action;   /* GC_DROP ... GC_REFUSE */
  uint8_t reason;   /* GC_REFUSE: GC_NAK_* */
  uint16_t n;       /* the command's sentence number */
  uint8_t seats;    /* GC_DISPLAY, GC_LAMP: seat mask */
  uint8_t lamp;     /* GC_LAMP: GC_LAMP_* */
  uint16_t beep_ms; /* GC_BEEP */
  uint8_t segs[GC_DIGITS]; /* GC_DISPLAY */
} GcCommand;

#define GC_MAX_FIELDS 4

static inline void gc_refuse(GcCommand *cmd, uint8_t reason) {
  cmd->action = GC_REFUSE;
  cmd->reason = reason;
}

/* Whether a field looks like a sentence type: one or more upper-case letters. */
static inline bool gc_is_type_name(const GcField *f) {
  if (f->len == 0) return false;
  for (uint8_t i = 0; i < f->len; i++) {
    if (f->p[i] < 'A' || f->p[i] > 'Z') return false;
  }
  return true;
}

/* Decides what a checked body from the host asks for.
 *
 * A wrong field count or a bad sentence number is a bad shape: dropped. With a good shape
 * and number, a bad seat, text or value is refused (NAK seat / text / value) so that the
 * host stops re-sending. Device-to-host types (READY, BTN, HB, NAK) coming from the host
 * are dropped; any other type with a number in its first field is refused as unknown,
 * one without is dropped. */
static inline void gc_parse_command(const char *body, uint8_t len, GcCommand *cmd) {
  GcField f[GC_MAX_FIELDS];
  uint8_t count = gc_split(body, len, f, GC_MAX_FIELDS);
  memset(cmd, 0, sizeof *cmd);
  cmd->action = GC_DROP;

  if (gc_field_is(&f[0], GC_FLASH("DSP")) || gc_field_is(&f[0], GC_FLASH("LED"))) {
    if (count != 4 || !gc_parse_number(&f[1], &cmd->n)) return;
    cmd->seats = gc_seat_mask(&f[2]);
    if (cmd->seats == 0) {
      gc_refuse(cmd, GC_NAK_SEAT);
      return;
    }
    if (f[0].p[0] == 'D') {
      if (!gc_render(f[3].p, f[3].len, cmd->segs)) {
        gc_refuse(cmd, GC_NAK_TEXT);
        return;
      }
      cmd->action = GC_DISPLAY;
      return;
    }
    if (gc_field_is(&f[3], GC_FLASH("ON"))) {
      cmd->lamp = GC_LAMP_ON;
    } else if (gc_field_is(&f[3], GC_FLASH("OFF"))) {
      cmd->lamp = GC_LAMP_OFF;
    } else if (gc_field_is(&f[3], GC_FLASH("BLINK"))) {
      cmd->lamp = GC_LAMP_BLINK;
    } else {
      gc_refuse(cmd, GC_NAK_VALUE);
      return;
    }
    cmd->action = GC_LAMP;
    return;
  }
  if (gc_field_is(&f[0], GC_FLASH("BEEP"))) {
    if (count != 3 || !gc_parse_number(&f[1], &cmd->n)) return;
    uint32_t ms;
    if (!gc_parse_uint(f[2].p, f[2].len, GC_BEEP_MAX_MS, &ms) || ms < GC_BEEP_MIN_MS) {
      gc_refuse(cmd, GC_NAK_VALUE);
      return;
    }
    cmd->beep_ms = (uint16_t)ms;
    cmd->action = GC_BEEP;
    return;
  }
  if (gc_field_is(&f[0], GC_FLASH("ACK"))) {
    if (count == 2 && gc_parse_number(&f[1], &cmd->n)) cmd->action = GC_HOST_ACK;
    return;
  }
  if (gc_field_is(&f[0], GC_FLASH("READY")) || gc_field_is(&f[0], GC_FLASH("BTN")) ||
      gc_field_is(&f[0], GC_FLASH("HB")) || gc_field_is(&f[0], GC_FLASH("NAK"))) {
    return; /* the device's own sentence types mean nothing coming from the host */
  }
  if (count >= 2 && gc_is_type_name(&f[0]) && gc_parse_number(&f[1], &cmd->n)) {
    gc_refuse(cmd, GC_NAK_UNKNOWN);
  }
}

/* ---- outgoing sentences -------------------------------------------------------------- */

typedef struct {
  char buf[GC_MAX_SENTENCE];
  uint8_t len;
  bool overflow;
} GcOut;

#define GC_OUT_TAIL 5 /* "*CS\r\n" */

static inline void gc_out_begin(GcOut *o) {
  o->buf[0] = '$';
  o->len = 1;
  o->overflow = false;
}

static inline void gc_out_char(GcOut *o, char c) {
  if (o->len >= GC_MAX_SENTENCE - GC_OUT_TAIL) {
    o->overflow = true;
    return;
  }
  o->buf[o->len++] = c;
}

/* Appends a constant string (in flash on AVR). */
static inline void gc_out_flash(GcOut *o, const char *flash_text) {
  for (char c = GC_FLASH_BYTE(flash_text); c != '\0'; c = GC_FLASH_BYTE(++flash_text)) gc_out_char(o, c);
}

static inline void gc_out_uint(GcOut *o, uint32_t v) {
  char digits[10];
  uint8_t k = 0;
  do {
    digits[k++] = (char)('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (k > 0) gc_out_char(o, digits[--k]);
}

/* Closes the sentence with "*CS\r\n"; returns its length, or 0 if it did not fit. */
static inline uint8_t gc_out_end(GcOut *o) {
  if (o->overflow) return 0;
  uint8_t cs = gc_checksum(o->buf + 1, (uint8_t)(o->len - 1));
  o->buf[o->len++] = '*';
  o->buf[o->len++] = gc_hex_digit((uint8_t)(cs >> 4));
  o->buf[o->len++] = gc_hex_digit(cs);
  o->buf[o->len++] = '\r';
  o->buf[o->len++] = '\n';
  return o->len;
}

static inline uint8_t gc_make_ready(GcOut *o) {
  gc_out_begin(o);
  gc_out_flash(o, GC_FLASH("READY,"));
  gc_out_uint(o, GC_PROTOCOL);
  gc_out_flash(o, GC_FLASH("," GC_FIRMWARE_VERSION "," GC_SEATS));
  return gc_out_end(o);
}

static inline uint8_t gc_make_button(GcOut *o, uint16_t n, char seat, uint32_t ms) {
  gc_out_begin(o);
  gc_out_flash(o, GC_FLASH("BTN,"));
  gc_out_uint(o, n);
  gc_out_char(o, ',');
  gc_out_char(o, seat);
  gc_out_char(o, ',');
  gc_out_uint(o, ms);
  return gc_out_end(o);
}

static inline uint8_t gc_make_heartbeat(GcOut *o, uint32_t ms) {
  gc_out_begin(o);
  gc_out_flash(o, GC_FLASH("HB,"));
  gc_out_uint(o, ms);
  return gc_out_end(o);
}

/* ACK,n for GC_REPLY_ACK, else NAK,n,<reason>. */
static inline uint8_t gc_make_reply(GcOut *o, uint16_t n, uint8_t reason) {
  gc_out_begin(o);
  gc_out_flash(o, reason == GC_REPLY_ACK ? GC_FLASH("ACK,") : GC_FLASH("NAK,"));
  gc_out_uint(o, n);
  switch (reason) {
    case GC_REPLY_ACK: break;
    case GC_NAK_SEAT: gc_out_flash(o, GC_FLASH(",seat")); break;
    case GC_NAK_TEXT: gc_out_flash(o, GC_FLASH(",text")); break;
    case GC_NAK_VALUE: gc_out_flash(o, GC_FLASH(",value")); break;
    default: gc_out_flash(o, GC_FLASH(",unknown")); break;
  }
  return gc_out_end(o);
}

/* the buttons' and lamps' state machines, which use the above */
#include "presses.h"

#endif /* GUANDAN_CLOCK_PROTOCOL_H */
