package studio.kiln;

/** One ramp of a firing: heat (or cool) at a rate to a target, then hold. */
public record Segment(int ratePerHour, int targetCelsius, int holdMinutes) {
    public Segment {
        if (ratePerHour == 0) {
            throw new IllegalArgumentException("rate must not be zero (target " + targetCelsius + ")");
        }
    }

    public double minutesFrom(int startCelsius) {
        return Math.abs(targetCelsius - startCelsius) * 60.0 / Math.abs(ratePerHour) + holdMinutes;
    }
}
