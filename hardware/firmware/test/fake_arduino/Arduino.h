/*
 * A stand-in for <Arduino.h> with just what guandan_clock.ino uses, so that the whole
 * sketch compiles and runs on the host inside test/sketch_harness.cpp. Pins, time and the
 * serial port are simulated there.
 */
#ifndef FAKE_ARDUINO_H
#define FAKE_ARDUINO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HIGH 1
#define LOW 0
#define INPUT 0
#define OUTPUT 1
#define INPUT_PULLUP 2

static const uint8_t A0 = 14, A1 = 15, A2 = 16, A3 = 17, A4 = 18, A5 = 19;

uint32_t millis();
void pinMode(uint8_t pin, uint8_t mode);
void digitalWrite(uint8_t pin, uint8_t value);
int digitalRead(uint8_t pin);
void delayMicroseconds(unsigned int us);
void tone(uint8_t pin, unsigned int frequency, unsigned long duration = 0);
void noTone(uint8_t pin);

class FakeSerial {
 public:
  void begin(unsigned long baud);
  int available();
  int read();
  int availableForWrite();
  size_t write(const uint8_t *data, size_t len);
};

extern FakeSerial Serial;

#endif
