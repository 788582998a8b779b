// MediaContent as 2008's media.thrift had it (thrift-protobuf-compare, November 2008): the same structs,
// field ids, requiredness and enum values (Size SMALL = 1, LARGE = 2, unlike protobuf's 0 and 1).
// 2008's `typedef i32 int` and `typedef i64 long` are written out as i32 and i64.
// The JVM side does not generate code from this file: its classes (experiments/serialization/java/thrift)
// are written by hand against TProtocol, so one source serves libthrift 0.6.1 and 0.2x (see SHARED.md).

namespace java serialization.thrift

enum Size {
  SMALL = 1,
  LARGE = 2,
}

enum Player {
  JAVA = 0,
  FLASH = 1,
}

struct Image {
  1: string uri,
  2: optional string title,
  3: optional i32 width,
  4: optional i32 height,
  5: optional Size size,
}

struct Media {
  1: string uri,
  2: optional string title,
  3: optional i32 width,
  4: optional i32 height,
  5: optional string format,
  6: optional i64 duration,
  7: optional i64 size,
  8: optional i32 bitrate,
  9: optional list<string> person,
  10: optional Player player,
  11: optional string copyright,
}

struct MediaContent {
  1: optional list<Image> image,
  2: optional Media media,
}
