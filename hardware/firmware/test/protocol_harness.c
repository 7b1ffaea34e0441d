/*
 * protocol_harness.c - drives the firmware's protocol.h on the host, for
 * tests/hardware/test_firmware.py (compiled there with the system gcc).
 *
 * Reads one command per line from stdin and writes exactly one line per command:
 *
 *   F <hex bytes>       fresh framer, feed the bytes -> "<dropped> [<hex body> ...]"
 *   P <hex body>        host command decision -> "DROP" | "CLEAR <n>" | "NAK <n> <reason>"
 *                       | "ACK <n> DSP <seat mask> <8 hex digits of segments>"
 *                       | "ACK <n> LED <seat mask> <0 off|1 on|2 blink>" | "ACK <n> BEEP <ms>"
 *   O READY | O HB <ms> | O BTN <n> <seat> <ms> | O ACK <n> | O NAK <n> <reason code>
 *                       an outgoing sentence -> its bytes in hex ("-" if it did not fit)
 *   RI                  empty the press ring -> "ok"
 *   RP <seat> <ms>      record a press -> "<n> <count> <lost>"
 *   RA <n>              host ACK -> "1" if a pending press was cleared, else "0"
 *   RD <now>            the press due at <now>, marked sent -> "<n> <seat> <ms>" or "-"
 *   RL                  pending presses, oldest first -> "<n> ..." (empty line if none)
 *   DI <0|1 low> <now>  reset the debouncer -> "ok"
 *   DF <0|1 low> <now>  feed a reading -> "press <ms>" or "-"
 *   L <lamp> <now>      lamp lit? -> "1" or "0"
 *
 * Hex input keeps every byte value (NUL, CR, LF, '$', high bytes) out of the line syntax.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

static int unhex(const char *s, unsigned char *out, int max) {
  int n = 0;
  while (s[0] && s[1] && s[0] != '\n' && n < max) {
    unsigned int v;
    if (sscanf(s, "%2x", &v) != 1) break;
    out[n++] = (unsigned char)v;
    s += 2;
  }
  return n;
}

static void print_hex(const char *p, int len) {
  for (int i = 0; i < len; i++) printf("%02X", (unsigned char)p[i]);
}

static const char *reason_text(uint8_t reason) {
  switch (reason) {
    case GC_NAK_SEAT: return "seat";
    case GC_NAK_TEXT: return "text";
    case GC_NAK_VALUE: return "value";
    default: return "unknown";
  }
}

static void do_frame(const char *arg) {
  static unsigned char bytes[4096];
  int n = unhex(arg, bytes, (int)sizeof bytes);
  GcFramer f;
  gc_framer_init(&f);
  char bodies[4096 * 2 + 64];
  size_t used = 0;
  bodies[0] = '\0';
  for (int i = 0; i < n; i++) {
    const char *body;
    uint8_t len;
    if (!gc_framer_feed(&f, bytes[i], &body, &len)) continue;
    if (body[len] != '\0') {
      printf("NOT-NUL-TERMINATED\n");
      return;
    }
    bodies[used++] = ' ';
    for (int k = 0; k < len; k++) used += (size_t)sprintf(bodies + used, "%02X", (unsigned char)body[k]);
  }
  printf("%lu%s\n", (unsigned long)f.dropped, bodies);
}

static void do_parse(const char *arg) {
  unsigned char body[256];
  int n = unhex(arg, body, GC_MAX_RAW);
  GcCommand cmd;
  gc_parse_command((const char *)body, (uint8_t)n, &cmd);
  switch (cmd.action) {
    case GC_DISPLAY:
      printf("ACK %u DSP %X %02X%02X%02X%02X\n", cmd.n, cmd.seats, cmd.segs[0], cmd.segs[1], cmd.segs[2],
             cmd.segs[3]);
      break;
    case GC_LAMP: printf("ACK %u LED %X %u\n", cmd.n, cmd.seats, cmd.lamp); break;
    case GC_BEEP: printf("ACK %u BEEP %u\n", cmd.n, cmd.beep_ms); break;
    case GC_HOST_ACK: printf("CLEAR %u\n", cmd.n); break;
    case GC_REFUSE: printf("NAK %u %s\n", cmd.n, reason_text(cmd.reason)); break;
    default: printf("DROP\n"); break;
  }
}

static void do_out(const char *arg) {
  GcOut o;
  uint8_t len = 0;
  unsigned long a = 0, c = 0;
  char seat = 0;
  if (strncmp(arg, "READY", 5) == 0) {
    len = gc_make_ready(&o);
  } else if (sscanf(arg, "HB %lu", &a) == 1) {
    len = gc_make_heartbeat(&o, (uint32_t)a);
  } else if (sscanf(arg, "BTN %lu %c %lu", &a, &seat, &c) == 3) {
    len = gc_make_button(&o, (uint16_t)a, seat, (uint32_t)c);
  } else if (sscanf(arg, "ACK %lu", &a) == 1) {
    len = gc_make_reply(&o, (uint16_t)a, GC_REPLY_ACK);
  } else if (sscanf(arg, "NAK %lu %lu", &a, &c) == 2) {
    len = gc_make_reply(&o, (uint16_t)a, (uint8_t)c);
  }
  if (len == 0) {
    printf("-\n");
    return;
  }
  print_hex(o.buf, len);
  printf("\n");
}

static GcPressRing ring;
static GcDebounce debounce;

int main(void) {
  static char line[16384];
  gc_ring_init(&ring);
  gc_debounce_init(&debounce, false, 0);
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\r\n")] = '\0';
    unsigned long a = 0, b = 0;
    char seat = 0;
    if (strncmp(line, "F ", 2) == 0 || strcmp(line, "F") == 0) {
      do_frame(line[1] ? line + 2 : "");
    } else if (strncmp(line, "P ", 2) == 0) {
      do_parse(line + 2);
    } else if (strncmp(line, "O ", 2) == 0) {
      do_out(line + 2);
    } else if (strcmp(line, "RI") == 0) {
      gc_ring_init(&ring);
      printf("ok\n");
    } else if (sscanf(line, "RP %c %lu", &seat, &a) == 2) {
      uint16_t n = gc_ring_push(&ring, seat, (uint32_t)a);
      printf("%u %u %lu\n", n, ring.count, (unsigned long)ring.lost);
    } else if (sscanf(line, "RA %lu", &a) == 1) {
      printf("%d\n", gc_ring_ack(&ring, (uint16_t)a) ? 1 : 0);
    } else if (sscanf(line, "RD %lu", &a) == 1) {
      GcPress *p = gc_ring_due(&ring, (uint32_t)a);
      if (p == NULL) {
        printf("-\n");
      } else {
        gc_ring_sent(p, (uint32_t)a);
        printf("%u %c %lu\n", p->n, p->seat, (unsigned long)p->ms);
      }
    } else if (strcmp(line, "RL") == 0) {
      for (uint8_t i = 0; i < ring.count; i++) printf(i ? " %u" : "%u", gc_ring_at(&ring, i)->n);
      printf("\n");
    } else if (sscanf(line, "DI %lu %lu", &a, &b) == 2) {
      gc_debounce_init(&debounce, a != 0, (uint32_t)b);
      printf("ok\n");
    } else if (sscanf(line, "DF %lu %lu", &a, &b) == 2) {
      uint32_t at;
      if (gc_debounce(&debounce, a != 0, (uint32_t)b, &at)) {
        printf("press %lu\n", (unsigned long)at);
      } else {
        printf("-\n");
      }
    } else if (sscanf(line, "L %lu %lu", &a, &b) == 2) {
      printf("%d\n", gc_lamp_lit((uint8_t)a, (uint32_t)b) ? 1 : 0);
    } else {
      printf("?\n");
    }
    fflush(stdout);
  }
  return 0;
}
