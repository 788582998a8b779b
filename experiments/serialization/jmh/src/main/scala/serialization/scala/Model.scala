package serialization.scala

import org.openjdk.jmh.infra.Blackhole
import serialization.model.{Image => JImage, Media => JMedia, MediaContent => JMediaContent}

// MediaContent as a Scala 3 user writes it: immutable case classes, Option for what may be unset,
// immutable Lists. They stand in for 2008's Scala 2.7 classes (plain classes with vars, whose add methods
// discarded their result, so their lists stayed empty). The enums are the Java model's, so Java
// serialization writes the same enum constants for both.

final case class Image(uri: String, title: Option[String], width: Option[Int], height: Option[Int],
                       size: Option[JImage.Size])

final case class Media(uri: String, title: Option[String], width: Option[Int], height: Option[Int],
                       format: Option[String], duration: Option[Long], size: Option[Long], bitrate: Option[Int],
                       persons: List[String], player: Option[JMedia.Player], copyright: Option[String])

final case class MediaContent(media: Media, images: List[Image])

object Model {
  private def int(value: Integer): Option[Int] = if (value == null) None else Some(value.intValue)
  private def long(value: java.lang.Long): Option[Long] = if (value == null) None else Some(value.longValue)
  private def boxInt(value: Option[Int]): Integer = value match { case Some(v) => Integer.valueOf(v); case None => null }
  private def boxLong(value: Option[Long]): java.lang.Long = value match { case Some(v) => java.lang.Long.valueOf(v); case None => null }

  /** "create": the case classes for a value. */
  def fromValue(value: JMediaContent): MediaContent = {
    val m = value.media
    var persons: List[String] = Nil
    var p = m.persons.size - 1
    while (p >= 0) { persons = m.persons.get(p) :: persons; p -= 1 }
    var images: List[Image] = Nil
    var i = value.images.size - 1
    while (i >= 0) {
      val v = value.images.get(i)
      images = Image(v.uri, Option(v.title), int(v.width), int(v.height), Option(v.size)) :: images
      i -= 1
    }
    MediaContent(Media(m.uri, Option(m.title), int(m.width), int(m.height), Option(m.format), long(m.duration),
      long(m.size), int(m.bitrate), persons, Option(m.player), Option(m.copyright)), images)
  }

  /** The value the case classes carry (for checks). */
  def toValue(content: MediaContent): JMediaContent = {
    val m = content.media
    val persons = new java.util.ArrayList[String]()
    m.persons.foreach(persons.add)
    val images = new java.util.ArrayList[JImage]()
    content.images.foreach(i => images.add(new JImage(i.uri, i.title.orNull, boxInt(i.width), boxInt(i.height), i.size.orNull)))
    new JMediaContent(new JMedia(m.uri, m.title.orNull, boxInt(m.width), boxInt(m.height), m.format.orNull,
      boxLong(m.duration), boxLong(m.size), boxInt(m.bitrate), persons, m.player.orNull, m.copyright.orNull), images)
  }

  /** 2008's Scala fault, for Faults2008's sizes: its add methods discarded their result, so the lists stayed empty. */
  def withEmptyLists(content: MediaContent): MediaContent =
    content.copy(media = content.media.copy(persons = Nil), images = Nil)

  /** Read every field into the blackhole. */
  def touch(content: MediaContent, bh: Blackhole): Unit = {
    val m = content.media
    bh.consume(m.uri); bh.consume(m.title); bh.consume(m.width); bh.consume(m.height); bh.consume(m.format)
    bh.consume(m.duration); bh.consume(m.size); bh.consume(m.bitrate)
    m.persons.foreach(p => bh.consume(p))
    bh.consume(m.player); bh.consume(m.copyright)
    content.images.foreach { i =>
      bh.consume(i.uri); bh.consume(i.title); bh.consume(i.width); bh.consume(i.height); bh.consume(i.size)
    }
  }
}
