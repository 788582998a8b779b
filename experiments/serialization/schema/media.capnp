# MediaContent (experiments/serialization: the 2008 object) for Cap'n Proto: the fields, ids and enums of
# media.proto. Cap'n Proto has no "unset" for numbers and enums: each that may be unset is a group holding
# a union of `unset` and its value; an unset Text is a null pointer (an empty Text is not null).
@0xc2f3a1d4e5b60718;

struct Image {
  enum Size { small @0; large @1; }
  uri @0 :Text;
  title @1 :Text;
  width :union { unset @2 :Void; value @3 :Int32; }
  height :union { unset @4 :Void; value @5 :Int32; }
  size :union { unset @6 :Void; value @7 :Size; }
}

struct Media {
  enum Player { java @0; flash @1; }
  uri @0 :Text;
  title @1 :Text;
  width :union { unset @2 :Void; value @3 :Int32; }
  height :union { unset @4 :Void; value @5 :Int32; }
  format @6 :Text;
  duration :union { unset @7 :Void; value @8 :Int64; }
  size :union { unset @9 :Void; value @10 :Int64; }
  bitrate :union { unset @11 :Void; value @12 :Int32; }
  person @13 :List(Text);
  player :union { unset @14 :Void; value @15 :Player; }
  copyright @16 :Text;
}

struct MediaContent {
  image @0 :List(Image);
  media @1 :Media;
}
