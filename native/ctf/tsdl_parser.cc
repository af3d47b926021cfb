// SPDX-License-Identifier: EPL-2.0
#include "ctf/tsdl_parser.h"

#include <algorithm>
#include <vector>

#include "ctf/tsdl_lexer.h"

namespace tracesync::ctf {

namespace {

using Kind = TsdlToken::Kind;
using FC = FieldClass;

struct ParseError {
  unsigned line;
  std::string problem;
};

// A right-hand side of `name = value;`: a number, a string, or a dotted
// identifier (`le`, `clock.monotonic.value`).
struct Value {
  enum class Type : uint8_t { kInteger, kString, kIdentifier } type = Type::kInteger;
  int64_t integer = 0;
  uint64_t unsigned_integer = 0;
  bool negative = false;
  std::string text;
  unsigned line = 0;
};

// A pending event class: attached to its stream class once every block is read.
struct PendingEvent {
  EventClass event;
  bool has_id = false;
};

class Parser {
 public:
  explicit Parser(std::string_view text) : lexer_(text), text_(text) {
    scopes_.emplace_back();
    advance();
  }

  TraceClass parse() {
    trace_.byte_order = declared_byte_order();
    while (token_.kind != Kind::kEnd) top_level();
    attach_events();
    return std::move(trace_);
  }

 private:
  // --- tokens ---
  void advance() {
    token_ = lexer_.next();
    if (token_.kind == Kind::kBad) throw ParseError{token_.line, std::string(token_.text)};
  }
  bool is(std::string_view punctuator) const { return token_.kind == Kind::kPunctuator && token_.text == punctuator; }
  bool is_word(std::string_view word) const { return token_.kind == Kind::kIdentifier && token_.text == word; }
  [[noreturn]] void fail(const std::string& problem) const { throw ParseError{token_.line, problem}; }
  std::string shown() const {
    switch (token_.kind) {
      case Kind::kEnd: return "the end of the metadata";
      case Kind::kString: return "the string \"" + std::string(token_.text) + "\"";
      case Kind::kInteger: return "the number " + std::to_string(token_.value);
      default: return "`" + std::string(token_.text) + "`";
    }
  }
  void expect(std::string_view punctuator, std::string_view where) {
    if (!is(punctuator)) fail("expected `" + std::string(punctuator) + "` " + std::string(where) + ", found " + shown());
    advance();
  }
  // expect(punctuator, "after `KEY`"), its words made only when it fails
  // (an attribute's `=` and `;`: made every time, they were a heap string
  // each of most attributes).
  void expect_after(std::string_view punctuator, std::string_view key) {
    if (!is(punctuator)) {
      fail("expected `" + std::string(punctuator) + "` after `" + std::string(key) + "`, found " + shown());
    }
    advance();
  }
  std::string identifier(std::string_view what) {
    if (token_.kind != Kind::kIdentifier) fail("expected " + std::string(what) + ", found " + shown());
    std::string name(token_.text);
    advance();
    return name;
  }

  // The trace block's byte order, which type aliases declared before it
  // (LTTng writes them first) take as their native one: found by a look
  // ahead over the tokens.
  ByteOrder declared_byte_order() {
    TsdlLexer ahead(text_);
    int depth = 0;
    bool in_trace = false;
    TsdlToken previous;
    for (TsdlToken t = ahead.next(); t.kind != Kind::kEnd && t.kind != Kind::kBad; t = ahead.next()) {
      if (t.kind == Kind::kPunctuator && t.text == "{") {
        if (depth == 0) in_trace = previous.kind == Kind::kIdentifier && previous.text == "trace";
        ++depth;
      } else if (t.kind == Kind::kPunctuator && t.text == "}") {
        --depth;
      } else if (in_trace && depth == 1 && t.kind == Kind::kIdentifier && t.text == "byte_order") {
        const TsdlToken equals = ahead.next();
        const TsdlToken order = ahead.next();
        if (equals.text == "=" && (order.text == "be" || order.text == "network" || order.text == "big_endian")) {
          return ByteOrder::kBig;
        }
        return ByteOrder::kLittle;
      }
      previous = t;
    }
    return ByteOrder::kLittle;
  }

  // --- type names ---
  void define(const std::string& name, FieldClassPtr type) { scopes_.back()[name] = std::move(type); }
  FieldClassPtr lookup(std::string_view name) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      if (const auto found = scope->find(name); found != scope->end()) return found->second;
    }
    return nullptr;
  }

  // --- values ---
  Value value() {
    Value v;
    v.line = token_.line;
    if (is("-") || is("+")) {
      v.negative = is("-");
      advance();
      if (token_.kind != Kind::kInteger) fail("expected a number after the sign, found " + shown());
    }
    if (token_.kind == Kind::kInteger) {
      v.type = Value::Type::kInteger;
      v.unsigned_integer = token_.value;
      if (v.negative) {
        if (token_.value > uint64_t{1} << 63) fail("a negative number below -2^63");
        v.integer = static_cast<int64_t>(-token_.value);
      } else {
        v.integer = static_cast<int64_t>(token_.value);
      }
      advance();
      return v;
    }
    if (token_.kind == Kind::kString) {
      v.type = Value::Type::kString;
      v.text = token_.text;
      advance();
      return v;
    }
    if (token_.kind == Kind::kIdentifier) {
      v.type = Value::Type::kIdentifier;
      v.text = token_.text;
      advance();
      while (is(".")) {
        advance();
        v.text += '.';
        v.text += identifier("a name after `.`");
      }
      return v;
    }
    fail("expected a value, found " + shown());
  }
  static uint64_t unsigned_of(const Value& v, std::string_view what) {
    if (v.type != Value::Type::kInteger || v.negative) {
      throw ParseError{v.line, std::string(what) + " must be a non-negative integer"};
    }
    return v.unsigned_integer;
  }
  static bool boolean_of(const Value& v, std::string_view what) {
    if (v.type == Value::Type::kInteger && !v.negative && v.unsigned_integer <= 1) return v.unsigned_integer == 1;
    if (v.type == Value::Type::kIdentifier) {
      const std::string_view word = v.text;
      if (word == "true" || word == "TRUE") return true;
      if (word == "false" || word == "FALSE") return false;
    }
    throw ParseError{v.line, std::string(what) + " must be true or false"};
  }
  ByteOrder byte_order_of(const Value& v) const {
    if (v.type == Value::Type::kIdentifier) {
      const std::string_view word = v.text;
      if (word == "le" || word == "little_endian") return ByteOrder::kLittle;
      if (word == "be" || word == "big_endian" || word == "network") return ByteOrder::kBig;
      if (word == "native") return trace_.byte_order;
    }
    throw ParseError{v.line, "byte_order must be le, be, network or native"};
  }
  static std::string text_of(const Value& v) {
    if (v.type == Value::Type::kInteger) return (v.negative ? "-" : "") + std::to_string(v.unsigned_integer);
    return v.text;
  }

  // --- types ---
  // `integer { size = 32; align = 8; signed = false; ... }`
  FieldClassPtr integer_type() {
    auto fc = std::make_shared<FC>();
    fc->kind = FC::Kind::kInteger;
    fc->byte_order = trace_.byte_order;
    const unsigned line = token_.line;
    expect("{", "after `integer`");
    bool has_align = false;
    while (!is("}")) {
      // Compared as a view: its length first, no strlen of each word.
      const std::string name = identifier("an integer attribute");
      const std::string_view key = name;
      expect_after("=", key);
      const Value v = value();
      if (key == "size") {
        const uint64_t size = unsigned_of(v, "an integer's size");
        if (size == 0 || size > 64) throw ParseError{v.line, "an integer of " + std::to_string(size) + " bits (1 to 64 can be read)"};
        fc->size = static_cast<unsigned>(size);
      } else if (key == "align") {
        const uint64_t align = unsigned_of(v, "an alignment");
        if (align == 0 || (align & (align - 1)) != 0 || align > 4096 * 8) {
          throw ParseError{v.line, "an alignment of " + std::to_string(align) + " bits (a power of two is needed)"};
        }
        fc->alignment = static_cast<unsigned>(align);
        has_align = true;
      } else if (key == "signed") {
        fc->is_signed = boolean_of(v, "signed");
      } else if (key == "byte_order") {
        fc->byte_order = byte_order_of(v);
      } else if (key == "encoding") {
        const std::string_view encoding = v.text;
        fc->text = encoding == "UTF8" || encoding == "ASCII" || encoding == "utf8" || encoding == "ascii";
      } else if (key == "map") {
        if (v.type != Value::Type::kIdentifier || v.text.rfind("clock.", 0) != 0 || v.text.size() < 13 ||
            v.text.substr(v.text.size() - 6) != ".value") {
          throw ParseError{v.line, "map must be clock.NAME.value, not `" + text_of(v) + "`"};
        }
        fc->mapped_clock = v.text.substr(6, v.text.size() - 12);
      }  // base and the rest do not change how it is read
      expect(";", "after an integer attribute");
    }
    advance();
    if (fc->size == 0) throw ParseError{line, "an integer without a size"};
    if (!has_align) fc->alignment = fc->size % 8 == 0 ? 8 : 1;
    return fc;
  }

  FieldClassPtr floating_point_type() {
    auto fc = std::make_shared<FC>();
    fc->kind = FC::Kind::kFloat;
    fc->byte_order = trace_.byte_order;
    const unsigned line = token_.line;
    expect("{", "after `floating_point`");
    unsigned exp_dig = 0, mant_dig = 0;
    bool has_align = false;
    while (!is("}")) {
      const std::string key = identifier("a floating_point attribute");
      expect_after("=", key);
      const Value v = value();
      if (key == "exp_dig") exp_dig = static_cast<unsigned>(std::min<uint64_t>(unsigned_of(v, "exp_dig"), 1000));
      if (key == "mant_dig") mant_dig = static_cast<unsigned>(std::min<uint64_t>(unsigned_of(v, "mant_dig"), 1000));
      if (key == "byte_order") fc->byte_order = byte_order_of(v);
      if (key == "align") {
        const uint64_t align = unsigned_of(v, "an alignment");
        if (align == 0 || (align & (align - 1)) != 0 || align > 4096 * 8) throw ParseError{v.line, "a bad alignment"};
        fc->alignment = static_cast<unsigned>(align);
        has_align = true;
      }
      expect(";", "after a floating_point attribute");
    }
    advance();
    fc->size = exp_dig + mant_dig;
    if (fc->size != 32 && fc->size != 64) {
      throw ParseError{line, "a floating_point of " + std::to_string(fc->size) + " bits (32 or 64 can be read)"};
    }
    if (!has_align) fc->alignment = 8;
    return fc;
  }

  FieldClassPtr string_type() {
    auto fc = std::make_shared<FC>();
    fc->kind = FC::Kind::kString;
    fc->alignment = 8;
    if (is("{")) {
      advance();
      while (!is("}")) {
        identifier("a string attribute");
        expect("=", "in a string's attributes");
        value();
        expect(";", "after a string attribute");
      }
      advance();
    }
    return fc;
  }

  // Members (of a structure) or options (of a variant) up to the closing brace.
  std::vector<Member> members(std::string_view of) {
    std::vector<Member> out;
    // Damaged metadata may nest without end: the parser's stack is not.
    if (scopes_.size() > kMaxNesting) fail("types nested over " + std::to_string(kMaxNesting) + " deep");
    scopes_.emplace_back();
    while (!is("}")) {
      if (token_.kind == Kind::kEnd) fail("the end of the metadata inside " + std::string(of));
      if (is_word("typealias")) {
        typealias();
        continue;
      }
      if (is_word("typedef")) {
        typedef_();
        continue;
      }
      declaration([&](std::string name, FieldClassPtr type) {
        for (const Member& m : out) {
          if (m.name == name) fail("`" + name + "` declared twice in " + std::string(of));
        }
        out.push_back(Member{std::move(name), std::move(type)});
      });
    }
    scopes_.pop_back();
    advance();
    return out;
  }

  FieldClassPtr struct_type() {
    std::string name;
    if (token_.kind == Kind::kIdentifier) name = identifier("a structure name");
    std::shared_ptr<FC> fc;
    if (is("{")) {
      advance();
      fc = std::make_shared<FC>();
      fc->kind = FC::Kind::kStructure;
      fc->alignment = 1;
      fc->members = members(name.empty() ? "a structure" : "structure `" + name + "`");
      for (const Member& m : fc->members) fc->alignment = std::max(fc->alignment, m.type->alignment);
      if (is_word("align")) {
        advance();
        expect("(", "after `align`");
        const Value v = value();
        const uint64_t align = unsigned_of(v, "an alignment");
        if (align == 0 || (align & (align - 1)) != 0 || align > 4096 * 8) throw ParseError{v.line, "a bad alignment"};
        fc->alignment = std::max<unsigned>(fc->alignment, static_cast<unsigned>(align));
        expect(")", "after the alignment");
      }
      if (!name.empty()) define("struct " + name, fc);
      return fc;
    }
    if (name.empty()) fail("`struct` without a name or a body");
    FieldClassPtr known = lookup("struct " + name);
    if (!known) fail("unknown structure `" + name + "`");
    return known;
  }

  FieldPath path() {
    FieldPath p;
    std::vector<std::string> names{identifier("a field name")};
    while (is(".")) {
      advance();
      names.push_back(identifier("a field name after `.`"));
    }
    static const std::vector<std::pair<std::vector<std::string>, Scope>> roots = {
        {{"trace", "packet", "header"}, Scope::kPacketHeader},
        {{"stream", "packet", "context"}, Scope::kPacketContext},
        {{"stream", "event", "header"}, Scope::kEventHeader},
        {{"stream", "event", "context"}, Scope::kStreamEventContext},
        {{"event", "context"}, Scope::kEventContext},
        {{"event", "fields"}, Scope::kEventPayload},
    };
    for (const auto& [prefix, scope] : roots) {
      if (names.size() > prefix.size() && std::equal(prefix.begin(), prefix.end(), names.begin())) {
        p.absolute = true;
        p.scope = scope;
        names.erase(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(prefix.size()));
        break;
      }
    }
    p.names = std::move(names);
    return p;
  }

  FieldClassPtr variant_type() {
    std::string name;
    if (token_.kind == Kind::kIdentifier) name = identifier("a variant name");
    std::optional<FieldPath> selector;
    if (is("<")) {
      advance();
      selector = path();
      expect(">", "after a variant's selector");
    }
    std::shared_ptr<FC> fc;
    if (is("{")) {
      advance();
      fc = std::make_shared<FC>();
      fc->kind = FC::Kind::kVariant;
      fc->alignment = 1;  // each option aligns itself
      fc->members = members(name.empty() ? "a variant" : "variant `" + name + "`");
      if (fc->members.empty()) fail("a variant without options");
      if (!name.empty()) define("variant " + name, fc);
    } else {
      if (name.empty()) fail("`variant` without a name or a body");
      FieldClassPtr known = lookup("variant " + name);
      if (!known) fail("unknown variant `" + name + "`");
      fc = std::make_shared<FC>(*known);
    }
    if (selector) fc->selector = *selector;
    return fc;
  }

  FieldClassPtr enum_type() {
    std::string name;
    if (token_.kind == Kind::kIdentifier) name = identifier("an enumeration name");
    FieldClassPtr container;
    if (is(":")) {
      advance();
      container = type_name_until({"{"});
    }
    if (!is("{")) {
      if (name.empty()) fail("`enum` without a name or a body");
      FieldClassPtr known = lookup("enum " + name);
      if (!known) fail("unknown enumeration `" + name + "`");
      return known;
    }
    if (!container) container = lookup("int");
    if (!container || !container->is_integer()) fail("an enumeration needs an integer container type");
    advance();
    auto fc = std::make_shared<FC>(*container);
    fc->kind = FC::Kind::kEnumeration;
    fc->mappings.clear();
    int64_t next = 0;
    while (!is("}")) {
      Mapping m;
      if (token_.kind == Kind::kString) {
        m.label = token_.text;
        advance();
      } else {
        m.label = identifier("an enumeration label");
      }
      m.lower = m.upper = next;
      if (is("=")) {
        advance();
        const Value low = value();
        if (low.type != Value::Type::kInteger) throw ParseError{low.line, "an enumeration value must be an integer"};
        m.lower = m.upper = low.integer;
        if (is("...")) {
          advance();
          const Value high = value();
          if (high.type != Value::Type::kInteger) throw ParseError{high.line, "an enumeration range must end with an integer"};
          m.upper = high.integer;
        }
      }
      next = m.upper + 1;
      fc->mappings.push_back(std::move(m));
      if (is(",")) {
        advance();
      } else if (!is("}")) {
        fail("expected `,` or `}` in an enumeration, found " + shown());
      }
    }
    advance();
    if (!name.empty()) define("enum " + name, fc);
    return fc;
  }

  // A type given by keyword (integer, struct, ...); nullptr when the token
  // starts no such type (it may be an alias name).
  FieldClassPtr keyword_type() {
    if (is_word("integer")) return advance(), integer_type();
    if (is_word("floating_point")) return advance(), floating_point_type();
    if (is_word("string")) return advance(), string_type();
    if (is_word("struct")) return advance(), struct_type();
    if (is_word("variant")) return advance(), variant_type();
    if (is_word("enum")) return advance(), enum_type();
    return nullptr;
  }

  // An alias name of one or more words ("uint32_t", "unsigned long") ending
  // before one of `stops`.
  FieldClassPtr type_name_until(std::initializer_list<std::string_view> stops) {
    if (FieldClassPtr t = keyword_type()) return t;
    std::string name;
    const unsigned line = token_.line;
    while (token_.kind == Kind::kIdentifier) {
      if (!name.empty()) name += ' ';
      name += token_.text;
      advance();
    }
    bool stopped = false;
    for (const std::string_view stop : stops) stopped = stopped || is(stop);
    if (name.empty() || !stopped) fail("expected a type, found " + shown());
    FieldClassPtr known = lookup(name);
    if (!known) throw ParseError{line, "unknown type `" + name + "`"};
    return known;
  }

  // `TYPE name[dims], name2;` or a bare `TYPE;` (a named struct, enum or
  // variant declared for later use); each declarator goes to `declare`.
  template <typename Declare>
  void declaration(Declare&& declare) {
    FieldClassPtr type = keyword_type();
    std::vector<std::string_view> words;  // views into the metadata text
    const unsigned line = token_.line;
    if (!type) {
      while (token_.kind == Kind::kIdentifier) {
        words.emplace_back(token_.text);
        advance();
      }
      if (words.empty()) fail("expected a declaration, found " + shown());
      if (words.size() == 1) fail("expected a type and a name, found only `" + std::string(words.front()) + "`");
      // The type's words (all but the last, the name), joined by spaces.
      const auto type_name = [&words] {
        std::string name(words.front());
        for (std::size_t i = 1; i + 1 < words.size(); ++i) {
          name += ' ';
          name += words[i];
        }
        return name;
      };
      type = words.size() == 2 ? lookup(words.front()) : lookup(type_name());
      if (!type) throw ParseError{line, "unknown type `" + type_name() + "`"};
      words.erase(words.begin(), words.end() - 1);
    }
    if (is(";") && words.empty()) {
      advance();
      return;
    }
    while (true) {
      std::string name = words.empty() ? identifier("a field name") : std::string(words.front());
      words.clear();
      declare(std::move(name), declarator_type(type));
      if (is(",")) {
        advance();
        continue;
      }
      expect(";", "after a declaration");
      return;
    }
  }

  // `[4]`, `[len]` ... after a declarator: arrays and sequences of `type`.
  FieldClassPtr declarator_type(FieldClassPtr type) {
    struct Dimension {
      bool fixed;
      uint64_t length;
      FieldPath path;
    };
    std::vector<Dimension> dimensions;
    while (is("[")) {
      advance();
      if (token_.kind == Kind::kInteger) {
        dimensions.push_back({true, token_.value, {}});
        advance();
      } else {
        dimensions.push_back({false, 0, path()});
      }
      expect("]", "after an array's length");
    }
    for (auto d = dimensions.rbegin(); d != dimensions.rend(); ++d) {
      auto fc = std::make_shared<FC>();
      fc->kind = d->fixed ? FC::Kind::kArray : FC::Kind::kSequence;
      fc->element = type;
      fc->alignment = type->alignment;
      fc->length = d->length;
      fc->length_field = d->path;
      type = fc;
    }
    return type;
  }

  // `typealias TYPE := NAME;`
  void typealias() {
    advance();
    FieldClassPtr type = type_name_until({":="});
    type = declarator_type(type);
    expect(":=", "in a typealias");
    std::string name;
    while (token_.kind == Kind::kIdentifier) {
      if (!name.empty()) name += ' ';
      name += token_.text;
      advance();
    }
    if (name.empty()) fail("a typealias without a name");
    type = declarator_type(type);
    define(name, type);
    expect(";", "after a typealias");
  }

  // `typedef TYPE NAME;`
  void typedef_() {
    advance();
    declaration([&](std::string name, FieldClassPtr type) { define(name, std::move(type)); });
  }

  // --- blocks ---
  // Each `key = value;` or `key := type;` of a block, to `assign` or `assign_type`.
  template <typename Assign, typename AssignType>
  void block(std::string_view what, Assign&& assign, AssignType&& assign_type) {
    expect("{", "after `" + std::string(what) + "`");
    while (!is("}")) {
      if (token_.kind == Kind::kEnd) fail("the end of the metadata inside the " + std::string(what) + " block");
      if (is_word("typealias")) {
        typealias();
        continue;
      }
      if (is_word("typedef")) {
        typedef_();
        continue;
      }
      const unsigned line = token_.line;
      std::string key = identifier("an attribute name");
      while (is(".")) {
        advance();
        key += '.';
        key += identifier("a name after `.`");
      }
      if (is(":=")) {
        advance();
        FieldClassPtr type = type_name_until({";"});
        assign_type(key, std::move(type), line);
      } else {
        expect_after("=", key);
        assign(key, value());
      }
      expect_after(";", key);
    }
    advance();
    expect(";", "after the " + std::string(what) + " block");
  }

  static FieldClassPtr structure(FieldClassPtr type, const std::string& key, unsigned line) {
    if (type->kind != FC::Kind::kStructure) throw ParseError{line, "`" + key + "` must be a structure"};
    return type;
  }

  void trace_block() {
    bool has_major = false;
    block("trace", [&](const std::string& key, const Value& v) {
      if (key == "major") {
        trace_.major = static_cast<unsigned>(unsigned_of(v, "major"));
        has_major = true;
      } else if (key == "minor") {
        trace_.minor = static_cast<unsigned>(unsigned_of(v, "minor"));
      } else if (key == "uuid") {
        trace_.uuid = parse_uuid(v.text);
        if (v.type != Value::Type::kString || !trace_.uuid) throw ParseError{v.line, "the trace's uuid is not a UUID"};
      } else if (key == "byte_order") {
        trace_.byte_order = byte_order_of(v);
      }
    }, [&](const std::string& key, FieldClassPtr type, unsigned line) {
      if (key == "packet.header") trace_.packet_header = structure(std::move(type), key, line);
    });
    if (has_major && trace_.major != 1) fail("CTF " + std::to_string(trace_.major) + " metadata (this reader reads CTF 1.8)");
  }

  void env_block() {
    block("env", [&](const std::string& key, const Value& v) {
      if (v.type == Value::Type::kInteger) {
        trace_.environment_integers[key] = v.integer;
      } else {
        trace_.environment_strings[key] = v.text;
      }
    }, [](const std::string&, FieldClassPtr, unsigned) {});
  }

  void clock_block() {
    ClockClass clock;
    const unsigned line = token_.line;
    block("clock", [&](const std::string& key, const Value& v) {
      if (key == "name") clock.name = text_of(v);
      if (key == "uuid") {
        const auto uuid = parse_uuid(v.text);
        if (!uuid) throw ParseError{v.line, "the clock's uuid is not a UUID"};
        clock.uuid = uuid_text(*uuid);
      }
      if (key == "description") clock.description = v.text;
      if (key == "freq") {
        clock.frequency = unsigned_of(v, "a clock's freq");
        if (clock.frequency == 0) throw ParseError{v.line, "a clock of frequency 0"};
      }
      if (key == "precision") clock.precision = unsigned_of(v, "a clock's precision");
      if (key == "offset_s") {
        if (v.type != Value::Type::kInteger) throw ParseError{v.line, "offset_s must be an integer"};
        clock.offset_seconds = v.integer;
      }
      if (key == "offset") {
        if (v.type != Value::Type::kInteger) throw ParseError{v.line, "offset must be an integer"};
        clock.offset_cycles = v.integer;
      }
      if (key == "absolute") clock.absolute = boolean_of(v, "absolute");
    }, [](const std::string&, FieldClassPtr, unsigned) {});
    if (clock.name.empty()) throw ParseError{line, "a clock without a name"};
    if (trace_.clock(clock.name)) throw ParseError{line, "clock `" + clock.name + "` declared twice"};
    trace_.clocks.push_back(std::move(clock));
  }

  void stream_block() {
    StreamClass stream;
    const unsigned line = token_.line;
    block("stream", [&](const std::string& key, const Value& v) {
      if (key == "id") stream.id = unsigned_of(v, "a stream's id");
    }, [&](const std::string& key, FieldClassPtr type, unsigned at) {
      if (key == "event.header") stream.event_header = structure(std::move(type), key, at);
      if (key == "event.context") stream.event_context = structure(std::move(type), key, at);
      if (key == "packet.context") stream.packet_context = structure(std::move(type), key, at);
    });
    if (trace_.stream_classes.count(stream.id) != 0) {
      throw ParseError{line, "stream " + std::to_string(stream.id) + " declared twice"};
    }
    trace_.stream_classes[stream.id] = std::move(stream);
  }

  void event_block() {
    PendingEvent pending;
    pending.event.line = token_.line;
    block("event", [&](const std::string& key, const Value& v) {
      if (key == "name") pending.event.name = text_of(v);
      if (key == "id") {
        pending.event.id = unsigned_of(v, "an event's id");
        pending.has_id = true;
      }
      if (key == "stream_id") pending.event.stream_class_id = unsigned_of(v, "an event's stream_id");
      if (key == "loglevel") pending.event.log_level = v.integer;
    }, [&](const std::string& key, FieldClassPtr type, unsigned at) {
      if (key == "context") pending.event.context = structure(std::move(type), key, at);
      if (key == "fields") pending.event.payload = structure(std::move(type), key, at);
    });
    events_.push_back(std::move(pending));
  }

  void skip_block() {
    expect("{", "after a block's name");
    int depth = 1;
    while (depth > 0) {
      if (token_.kind == Kind::kEnd) fail("the end of the metadata inside a block");
      if (is("{")) ++depth;
      if (is("}")) --depth;
      advance();
    }
    expect(";", "after a block");
  }

  void top_level() {
    if (is_word("typealias")) return typealias();
    if (is_word("typedef")) return typedef_();
    if (is_word("trace")) return advance(), trace_block();
    if (is_word("env")) return advance(), env_block();
    if (is_word("clock")) return advance(), clock_block();
    if (is_word("stream")) return advance(), stream_block();
    if (is_word("event")) return advance(), event_block();
    if (is_word("callsite")) return advance(), skip_block();
    if (is_word("struct") || is_word("enum") || is_word("variant")) {
      keyword_type();
      expect(";", "after a type declaration");
      return;
    }
    fail("expected a block (trace, env, clock, stream, event) or a type declaration, found " + shown());
  }

  void attach_events() {
    if (trace_.stream_classes.empty() && !events_.empty()) trace_.stream_classes[0] = StreamClass{};
    for (PendingEvent& pending : events_) {
      EventClass& event = pending.event;
      const auto stream = trace_.stream_classes.find(event.stream_class_id);
      if (stream == trace_.stream_classes.end()) {
        throw ParseError{event.line, "event `" + event.name + "` belongs to stream " +
                                         std::to_string(event.stream_class_id) + ", which is not declared"};
      }
      if (!pending.has_id) event.id = stream->second.event_classes.size();
      if (stream->second.event_classes.count(event.id) != 0) {
        throw ParseError{event.line, "event id " + std::to_string(event.id) + " of stream " +
                                         std::to_string(event.stream_class_id) + " declared twice"};
      }
      stream->second.event_classes[event.id] = std::move(event);
    }
  }

  static constexpr std::size_t kMaxNesting = 64;
  TsdlLexer lexer_;
  std::string_view text_;
  TsdlToken token_;
  std::vector<std::map<std::string, FieldClassPtr, std::less<>>> scopes_;  // found by views too
  TraceClass trace_;
  std::vector<PendingEvent> events_;
};

}  // namespace

std::optional<TraceClass> parse_tsdl(std::string_view text, std::string* error) {
  try {
    Parser parser(text);
    return parser.parse();
  } catch (const ParseError& e) {
    if (error != nullptr) *error = "line " + std::to_string(e.line) + ": " + e.problem;
    return std::nullopt;
  }
}

}  // namespace tracesync::ctf
