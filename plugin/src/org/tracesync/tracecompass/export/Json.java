// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.export;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small reader of JSON text (RFC 8259) into Map, List, String, Long or Double, Boolean and null: enough
 * for tracesync's manifest. This package is built and tested without Trace Compass's bundles (where Gson lives), so it
 * brings no JSON library of its own to the bundle.
 */
final class Json {
  private final String text;
  private int at;

  private Json(String text) {
    this.text = text;
  }

  /** The value of a whole JSON text; IllegalArgumentException names the offset of what is wrong. */
  static Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.skipSpace();
    if (json.at != text.length()) throw json.error("text after the value");
    return value;
  }

  private Object value() {
    skipSpace();
    if (at >= text.length()) throw error("unexpected end");
    char c = text.charAt(at);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> number();
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> members = new LinkedHashMap<>();
    at++;
    skipSpace();
    if (peek('}')) return members;
    do {
      skipSpace();
      if (at >= text.length() || text.charAt(at) != '"') throw error("expected a member name");
      String name = string();
      skipSpace();
      expect(':');
      members.put(name, value());
      skipSpace();
    } while (peek(','));
    expect('}');
    return members;
  }

  private List<Object> array() {
    List<Object> elements = new ArrayList<>();
    at++;
    skipSpace();
    if (peek(']')) return elements;
    do {
      elements.add(value());
      skipSpace();
    } while (peek(','));
    expect(']');
    return elements;
  }

  private String string() {
    at++;  // the opening quote
    StringBuilder s = new StringBuilder();
    while (true) {
      if (at >= text.length()) throw error("unterminated string");
      char c = text.charAt(at++);
      if (c == '"') return s.toString();
      if (c != '\\') {
        s.append(c);
        continue;
      }
      if (at >= text.length()) throw error("unterminated escape");
      char e = text.charAt(at++);
      switch (e) {
        case '"', '\\', '/' -> s.append(e);
        case 'b' -> s.append('\b');
        case 'f' -> s.append('\f');
        case 'n' -> s.append('\n');
        case 'r' -> s.append('\r');
        case 't' -> s.append('\t');
        case 'u' -> {
          if (at + 4 > text.length()) throw error("short \\u escape");
          s.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          at += 4;
        }
        default -> throw error("bad escape \\" + e);
      }
    }
  }

  private Object number() {
    int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
    String digits = text.substring(start, at);
    if (digits.isEmpty()) throw error("unexpected character '" + text.charAt(start) + "'");
    try {
      if (digits.matches("-?\\d+")) return Long.parseLong(digits);
      return Double.parseDouble(digits);
    } catch (NumberFormatException e) {
      throw error("bad number " + digits);
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, at)) throw error("unexpected character '" + text.charAt(at) + "'");
    at += word.length();
    return value;
  }

  private boolean peek(char c) {
    if (at < text.length() && text.charAt(at) == c) {
      at++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!peek(c)) throw error("expected '" + c + "'");
  }

  private void skipSpace() {
    while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) at++;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON: " + what + " at offset " + at);
  }
}
