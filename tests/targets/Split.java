// SPDX-License-Identifier: GPL-3.0-or-later
// Split.java - a Java program whose time splits 70/30 between two methods, by construction:
// fcHot and fcCold run the same loop (only their first value
// differs), 7 iterations of fcHot for 3 of fcCold, in turns of tens of
// milliseconds. Prints "ready" once warmed up. Argument: seconds to run (default 5; 0: until
// killed). Run with -XX:+PreserveFramePointer (stacks through JIT code) and
// -XX:+DumpPerfMapAtExit (names, written at exit).
public final class Split {
  static int fcHot (int n) {
    int x = 0;
    for (int i = 0; i < n; i++)
      x = (x * 31 + i) & 0xffff;
    return x;
  }

  static int fcCold (int n) {
    int x = 1;
    for (int i = 0; i < n; i++)
      x = (x * 31 + i) & 0xffff;
    return x;
  }

  public static void main (String[] args) {
    double seconds = args.length > 0 ? Double.parseDouble (args[0]) : 5;
    long sink = 0;
    // both compiled before the measured part starts
    for (int k = 0; k < 200; k++)
      sink += fcHot (100000) + fcCold (100000);
    System.out.println ("ready");
    System.out.flush ();
    long end = System.nanoTime () + (long) (seconds * 1e9);
    while (seconds == 0 || System.nanoTime () < end) {
      sink += fcHot (7000000);
      sink += fcCold (3000000);
    }
    if (sink == 42)
      System.out.println (sink);
  }
}
